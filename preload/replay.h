/* What every replay closure needs besides its own call. */
#ifndef TF_REPLAY_H
#define TF_REPLAY_H
#include <stdint.h>

/* Orders `trigger` after the work queued so far on `recorded` (an event
 * recorded there, waited on there). Nothing when they are the same stream.
 * Returns 0 or the runtime error. */
int tf_order_after(uint64_t recorded, uint64_t trigger);

/* Makes `device` current for a replay; returns the device to restore, or -1
 * when nothing changed. */
int tf_device_enter(int device);
void tf_device_leave(int previous);

/* The driver context current on this thread, and switching to another for
 * a replay (enter returns what to restore; NULL when nothing changed). */
void *tf_context_current(void);
void *tf_context_enter(void *ctx);
void tf_context_leave(void *previous);

#endif
