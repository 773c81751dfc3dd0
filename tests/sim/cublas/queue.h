/* Host-computed BLAS calls as device work (queue.c): the call's CBLAS
 * computation runs on its stream, in the scheduler's order on the
 * asynchronous stand-in, with the memory it touches told to the race
 * detector, as the GEMM family's work is (simcublasLt_enqueue). */
#ifndef SIMCUBLAS_QUEUE_H
#define SIMCUBLAS_QUEUE_H
#include "handle.h"
#include "simcuda_task.h"

/* A strided vector of n elements of es bytes: its bounding byte range. */
SIMCUBLAS_HIDDEN simcuda_span simcublas_vec_span(const void *x, int64_t n, int64_t inc, size_t es, bool write);
/* A column-major rows x cols matrix with leading dimension ld. */
SIMCUBLAS_HIDDEN simcuda_span simcublas_mat_span(const void *a, int64_t rows, int64_t cols, int64_t ld, size_t es,
                                                 bool write);

/* Runs fn on a copy of the `size` bytes at args as h's device work, named
 * op, touching spans[0..n). On the synchronous stand-in outside a capture,
 * fn runs now on args itself. */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_queue(cublasHandle_t h, const char *op, void (*fn)(void *), const void *args,
                                                size_t size, const simcuda_span *spans, size_t n);

/* The same for a call that returns a result (or updates scalars) where a
 * pointer says: with the handle in host pointer mode the call waits for it,
 * as cuBLAS does. */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_queue_result(cublasHandle_t h, const char *op, void (*fn)(void *),
                                                       const void *args, size_t size, const simcuda_span *spans,
                                                       size_t n);
/* A span for a result of `bytes` at p, when it is device memory (pointer
 * mode device); NULL otherwise, which the span lists below leave out. */
SIMCUBLAS_HIDDEN simcuda_span simcublas_result_span(cublasHandle_t h, const void *p, size_t bytes);

/* A scalar argument of a queued call: read now when the handle's pointer
 * mode is host, else where it points when the work runs. */
#define SIMCUBLAS_SCALAR(T) struct { T now; const T *dev; }
#define SIMCUBLAS_SCALAR_SET(h, s, p)                    \
    do {                                                 \
        if ((h)->pointer_mode == CUBLAS_POINTER_MODE_HOST) \
            (s).now = *(p), (s).dev = NULL;              \
        else                                             \
            (s).dev = (p);                               \
    } while (0)
#define SIMCUBLAS_SCALAR_GET(s) ((s).dev ? *(s).dev : (s).now)

#endif
