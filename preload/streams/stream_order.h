/* Captures as stream_order.c needs to know them (capture.c tells it). */
#ifndef TF_STREAM_ORDER_H
#define TF_STREAM_ORDER_H
#include <stdbool.h>

/* A capture began (+1) or ended (-1). */
void pl_captures_changed(int delta);
/* Whether `stream` is being captured now. */
bool pl_stream_capturing(uint64_t stream);
/* Whether a capture may be in progress (in this process). */
bool pl_capture_active(void);
/* Before a capture ends: records of the streams that joined captures run. */
void pl_capture_joined_end(void);

#endif
