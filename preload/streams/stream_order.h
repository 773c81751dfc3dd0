/* Captures as the stream hooks (stream_hooks.c, capture.c) tell
 * stream_order.c about them, and as replays and marks ask. */
#ifndef TF_STREAM_ORDER_H
#define TF_STREAM_ORDER_H
#include <stdbool.h>
#include <stdint.h>

#include "core/state.h"

/* Captures begun and not yet ended, roughly: read inline by the event-wait
 * hooks, which every wait passes. */
extern TF_HIDDEN _Atomic int pl_captures_now;

/* A capture began (+1) or ended (-1). */
void pl_captures_changed(int delta);
/* Whether `stream` is being captured now. */
bool pl_stream_capturing(uint64_t stream);
/* Whether a capture may be in progress (in this process). */
bool pl_capture_active(void);
/* `stream` joined a capture (an event wait): its records run before the
 * capture ends. */
void pl_capture_joined_add(uint64_t stream);
/* Before a capture ends: records of the streams that joined captures run. */
void pl_capture_joined_end(void);

#endif
