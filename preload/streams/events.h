/* transfold's own CUDA events, for ordering replays and marking the
 * engine's points in stream order: through the runtime library when the
 * program has one, else through the driver (a program linked with the
 * static runtime exports no cuda* symbols to call; its events are the
 * driver's anyway). Each returns 0 or the CUDA status; stream arguments are
 * runtime stream handles, whose special values (0, legacy, per-thread) the
 * driver's equal. Callers raise the depth and hold the runtime error. */
#ifndef TF_EVENTS_H
#define TF_EVENTS_H
#include <stdbool.h>

/* Without timing, as every event of ours is. */
int pl_event_create(void **event);
int pl_event_record(void *event, void *stream);
/* 0 once complete; non-zero while pending or on error. */
int pl_event_query(void *event);
int pl_event_sync(void *event);
int pl_event_destroy(void *event);
int pl_event_wait(void *stream, void *event);
/* Whether `stream` is capturing now. */
bool pl_stream_is_capturing(void *stream);

#endif
