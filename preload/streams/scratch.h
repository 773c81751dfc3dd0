/* Device memory of transfold's own, for work it adds to a program's
 * stream: a producer replayed into scratch (holes), a deferred GEMM's
 * operand copied aside (output folding). Through the runtime where the
 * program has one, else the driver; always the real functions, so none of
 * it is the program's. Called with the engine locked. */
#ifndef PL_STREAMS_SCRATCH_H
#define PL_STREAMS_SCRATCH_H
#include <stdint.h>

/* Synchronous allocation (cudaMalloc); 0 when it failed. */
uint64_t pl_scratch_alloc(uint64_t bytes);
void pl_scratch_free(uint64_t p);
/* Stream-ordered allocation on `stream` (a program stream id), freed on
 * it with pl_scratch_free_on; 0 when the program's CUDA has no
 * stream-ordered allocator or it failed. */
uint64_t pl_scratch_alloc_on(uint64_t bytes, uint64_t stream);
void pl_scratch_free_on(uint64_t p, uint64_t stream);
/* A device-to-device copy on `stream`; non-zero when it could not be queued. */
int pl_scratch_copy(uint64_t dst, uint64_t src, uint64_t bytes, uint64_t stream);

#endif
