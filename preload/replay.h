/* What every replay closure needs besides its own call. */
#ifndef TF_REPLAY_H
#define TF_REPLAY_H
#include <stdint.h>

/* Orders `trigger` after the work queued so far on `recorded` (both
 * stream ids, tf_stream_id), in two steps: the mark (an event recorded on
 * `recorded`) while the record's device/context is current, since an event
 * must be recorded in its stream's context; the wait once the trigger's own
 * device is current again, since 0 and cudaStreamPerThread name the stream
 * of the current device. Nothing when they are the same stream. Each
 * returns 0 or the CUDA status (the driver's, for a program without a
 * runtime library: events.h); the wait consumes the mark. */
typedef struct tf_order { void *event; uint64_t trigger; } tf_order;
int tf_order_mark(uint64_t recorded, uint64_t trigger, tf_order *o);
int tf_order_wait(tf_order *o);
/* `stream` waits for `event` (a cudaEvent_t); the host waits instead when
 * the stream is being captured. A CUDA status. */
int tf_stream_wait(uint64_t stream, void *event);

/* transfold's own runtime calls must not change what the program's next
 * cudaGetLastError returns: hold before them, release after. A failure in
 * between is cleared when the program had no error pending; an error the
 * program had not fetched yet cannot be re-armed, so internal calls avoid
 * failing where they can. */
int tf_rt_error_hold(void);
void tf_rt_error_release(int held);

/* Where a replay runs: the device (cuBLAS, cuBLASLt producers) or the
 * driver context (kernel launches) current when the producer was called;
 * -1 / NULL: wherever the trigger runs. */
typedef struct tf_place { int device; void *ctx; } tf_place;

/* Every replay: `issue(arg)` with the depth raised (its library calls are
 * not the program's) and `at` current; when it succeeds and `trigger` is
 * given, that stream is ordered after `stream` (tf_order_mark/wait).
 * Returns issue's status (0 = success) or the ordering's error. */
int tf_replay_issue(tf_place at, uint64_t stream, const uint64_t *trigger, int (*issue)(void *arg), void *arg);

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
