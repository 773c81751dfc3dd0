/* The device work of a stand-in cuBLAS call, made visible at the driver
 * level as real cuBLAS makes its own: a kernel launch through
 * cuGetProcAddress's cuLaunchKernel (access.c). */
#ifndef SIMCUBLAS_ACCESS_H
#define SIMCUBLAS_ACCESS_H
#include "handle.h"

/* Launches the kernel simcublas_access on h's stream with the call's n
 * operands (device addresses, n <= SIMCUBLAS_ACCESS_OPERANDS; the rest of
 * the parameters NULL), before the call's own work is queued (queue.h,
 * simcublasLt_enqueue). The kernel itself does nothing; the launch tells an
 * interposer on the driver (transfold) which memory the call touches, as
 * the launches of real cuBLAS kernels do. A driver that cannot launch it
 * changes nothing. */
#define SIMCUBLAS_ACCESS_OPERANDS 6
SIMCUBLAS_HIDDEN void simcublas_announce(cublasHandle_t h, const void *const *ops, int n);
/* Waits for the work queued before a call that computes on the host now
 * (the Set/Get transfers) or whose result the host waits for: the
 * stream's, or with `device` the whole device's. */
SIMCUBLAS_HIDDEN void simcublas_settle(cudaStream_t stream, bool device);

/* A classic GEMM transfold does not fold (gemm3m, CgemmEx, ...): checked,
 * its operands announced as above, then queued (gemm_core.c). */
struct simcublas_gemm;
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_gemm_announced(cublasHandle_t h, const struct simcublas_gemm *r);

#endif
