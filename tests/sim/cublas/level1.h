/* Shared by the Level-1 entry points (level1_*.c): BLAS semantics come from
 * the reference CBLAS (Debian's libblas), which takes 32-bit sizes and, for
 * complex types, scalars by address. Device memory is host memory in the
 * stand-in, so vectors, scalars and results are used where they are,
 * whatever the pointer mode. */
#ifndef SIMCUBLAS_LEVEL1_H
#define SIMCUBLAS_LEVEL1_H
#include <cblas.h>
#include <limits.h>

#include "args.h"
#include "trace.h"

/* The checks every Level-1 call starts with: NOT_INITIALIZED for a bad
 * handle, INVALID_VALUE when a scalar or result pointer is NULL (!ptrs_ok),
 * NOT_SUPPORTED for a size or stride beyond CBLAS's int (the stand-in
 * cannot compute it; never a wrong value); then, when there is work
 * (n > 0), the launch that announces its operands (access.h) and its trace
 * line (`name` the op). The computation is then queued as the stream's
 * work (queue.h). */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_l1_start(cublasHandle_t h, const char *name, bool ptrs_ok, int64_t n,
                                                   int64_t incx, int64_t incy, const void *x, const void *y);
/* The trace op of the next Level-1 call on this thread: `name`, unless an
 * Ex entry point (level1_ex.c) set its own name with simcublas_l1_trace_as
 * before running as a typed routine; consumed by the call. */
SIMCUBLAS_HIDDEN void simcublas_l1_trace_as(const char *name);
SIMCUBLAS_HIDDEN const char *simcublas_l1_name(const char *name);

/* Whether the arithmetic should run: a successful start with work to do. */
#define SIMCUBLAS_L1_RUN(st, n) ((st) == CUBLAS_STATUS_SUCCESS && (n) > 0 && !sim_noop())

/* A scalar argument as CBLAS takes it: real by value, complex by address. */
#define SIMCUBLAS_L1_VAL_S(p) (*(p))
#define SIMCUBLAS_L1_VAL_D(p) (*(p))
#define SIMCUBLAS_L1_VAL_C(p) ((const void *)(p))
#define SIMCUBLAS_L1_VAL_Z(p) ((const void *)(p))

#endif
