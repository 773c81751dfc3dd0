/* What every replay closure needs besides its own call. */
#ifndef TF_REPLAY_H
#define TF_REPLAY_H
#include <stdint.h>

/* `stream` waits for `event` (a cudaEvent_t); the host waits instead when
 * the stream is being captured. A CUDA status. */
int pl_stream_wait(uint64_t stream, void *event);

/* pl_rt_error_hold and _release, which every replay's caller needs too. */
#include "streams/rt_error.h"

/* Where a replay runs: the device (cuBLAS, cuBLASLt producers) or the
 * driver context (kernel launches) current when the producer was called;
 * -1 / NULL: wherever the trigger runs. */
typedef struct pl_place { int device; void *ctx; } pl_place;

/* Every replay: `issue(arg)` with the depth raised (its library calls are
 * not the program's) and `at` current; when it succeeds and `trigger` is
 * given, that stream is ordered after `stream` (replay.c: order_mark/wait).
 * Returns issue's status (0 = success) or the ordering's error. */
int pl_replay_issue(pl_place at, uint64_t stream, const uint64_t *trigger, int (*issue)(void *arg), void *arg);

/* The driver context current on this thread. */
void *pl_context_current(void);

#endif
