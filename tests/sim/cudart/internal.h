/* Internals of the stand-in runtime (libcudart.so.13). Hidden: the library
 * exports only what exports.map names. */
#ifndef SIM_CUDART_INTERNAL_H
#define SIM_CUDART_INTERNAL_H
/* Entry points bind to this library's own definitions (as -Bsymbolic
 * would): calls and table entries inside the stand-in must not be routed
 * to an interposer that exports the same names. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#pragma GCC visibility push(protected)
#include <cuda.h>
#include <cuda_runtime_api.h>
#pragma GCC visibility pop

#include "trace.h"

/* For entry points declared outside the CUDA headers (see the pragma). */
#define SIM_API __attribute__((visibility("protected")))

#define SIM_RUNTIME_VERSION CUDART_VERSION

/* The driver as this runtime sees it: pointers from cuGetProcAddress_v2. */
struct sim_drv {
#define SIM_RT_DRV(name) __typeof__(name) *p_##name;
#include "driver_fns.h"
#undef SIM_RT_DRV
};

/* driver.c: bootstraps on first use (dlopen + cuGetProcAddress_v2) and
 * makes the primary context current on the calling thread. NULL when the
 * driver cannot be reached. The per-thread table holds the variants that
 * use the per-thread default stream (for the _ptsz/_ptds entry points). */
SIM_HIDDEN const struct sim_drv *sim_rt_drv(void);
SIM_HIDDEN const struct sim_drv *sim_rt_drv_pt(void);
SIM_HIDDEN cudaError_t sim_rt_init_error(void);
/* The driver's resolver itself, for cudaGetDriverEntryPoint*. */
SIM_HIDDEN CUresult sim_rt_proc_address(const char *symbol, void **fn, int version, cuuint64_t flags,
                                        CUdriverProcAddressQueryResult *status);
/* Names, in the trace, the coming call of `driver_api` (its base name,
 * e.g. "cuMemcpyHtoD") after `op`, the API the program called.
 * sim_rt_trace_as(NULL, NULL) withdraws an announcement the driver did not
 * take (the call failed before tracing). */
SIM_HIDDEN void sim_rt_trace_as(const char *op, const char *driver_api);

#define DRV(d, name) ((d)->p_##name)

/* Evaluates CALL, a driver call, announced as the program's `op` (see
 * sim_rt_trace_as); the announcement is withdrawn after it, in case the
 * driver failed before tracing. Yields the driver's result. */
#define SIM_RT_AS(op, driver_api, call)      \
    ({                                       \
        sim_rt_trace_as(op, driver_api);     \
        CUresult as_r_ = (call);             \
        sim_rt_trace_as(NULL, NULL);         \
        as_r_;                               \
    })

/* The front of the runtime's allocators: a NULL result pointer is
 * cudaErrorInvalidValue, and zero bytes succeed with NULL without asking
 * the driver, which would refuse them. */
#define SIM_RT_ALLOC_ARGS(p, n)                          \
    do {                                                 \
        if (!(p))                                        \
            return sim_rt_return(cudaErrorInvalidValue); \
        if ((n) == 0) {                                  \
            *(p) = NULL;                                 \
            return cudaSuccess;                          \
        }                                                \
    } while (0)

/* Fetches the driver table into `d` or returns the bootstrap error. */
#define SIM_RT_DRIVER(d, pt)                                      \
    const struct sim_drv *d = (pt) ? sim_rt_drv_pt() : sim_rt_drv(); \
    if (!d)                                                       \
        return sim_rt_return(sim_rt_init_error())

/* error.c */
SIM_HIDDEN cudaError_t sim_rt_error(CUresult r);
/* Records a failure for cudaGetLastError/cudaPeekAtLastError; returns e. */
SIM_HIDDEN cudaError_t sim_rt_return(cudaError_t e);
SIM_HIDDEN cudaError_t sim_rt_result(CUresult r);

/* register.c: host stub -> device name, and the driver kernel for it. */
SIM_HIDDEN cudaError_t sim_rt_kernel_for(const void *host_fn, CUkernel *out);

#endif
