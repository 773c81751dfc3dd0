/* Reaching the driver the way the real runtime does: dlopen("libcuda.so.1"),
 * dlsym of cuGetProcAddress_v2, then every driver function through that
 * resolver, once with the legacy default stream and once with the
 * per-thread default stream. Nothing here links or calls libcuda by symbol,
 * so a preload that interposes dlsym or cuGetProcAddress sees every driver
 * call this runtime makes. */
#include "internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef CUresult (*sim_proc_address_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef void (*sim_trace_as_fn)(const char *, const char *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static cudaError_t init_error = cudaErrorInsufficientDriver;
static sim_proc_address_fn proc_address;
static sim_trace_as_fn trace_as;
static struct sim_drv legacy, per_thread;
static __thread bool thread_ready;

static bool fill(struct sim_drv *d, cuuint64_t flags)
{
    bool ok = true;
#define SIM_RT_DRV(name)                                                                    \
    if (proc_address(#name, (void **)&d->p_##name, SIM_RUNTIME_VERSION, flags, NULL) != CUDA_SUCCESS) { \
        fprintf(stderr, "simcuda runtime: the driver has no %s\n", #name);                 \
        ok = false;                                                                         \
    }
#include "driver_fns.h"
#undef SIM_RT_DRV
    return ok;
}

static void bootstrap(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib)
        return;
    proc_address = (sim_proc_address_fn)dlsym(lib, "cuGetProcAddress_v2");
    /* Stand-in only: lets the trace name operations after the runtime API. */
    trace_as = (sim_trace_as_fn)dlsym(lib, "simcudaTraceAs");
    if (!proc_address || !fill(&legacy, CU_GET_PROC_ADDRESS_LEGACY_STREAM) ||
        !fill(&per_thread, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))
        return;
    CUdevice dev;
    if (DRV(&legacy, cuInit)(0) != CUDA_SUCCESS || DRV(&legacy, cuDeviceGet)(&dev, 0) != CUDA_SUCCESS) {
        init_error = cudaErrorNoDevice;
        return;
    }
    init_error = cudaSuccess;
}

/* The runtime makes the primary context current on each thread it serves. */
static bool ready(void)
{
    pthread_once(&once, bootstrap);
    if (init_error != cudaSuccess)
        return false;
    if (!thread_ready) {
        CUcontext ctx;
        if (DRV(&legacy, cuDevicePrimaryCtxRetain)(&ctx, 0) != CUDA_SUCCESS ||
            DRV(&legacy, cuCtxSetCurrent)(ctx) != CUDA_SUCCESS)
            return false;
        thread_ready = true;
    }
    return true;
}

const struct sim_drv *sim_rt_drv(void) { return ready() ? &legacy : NULL; }
const struct sim_drv *sim_rt_drv_pt(void) { return ready() ? &per_thread : NULL; }

cudaError_t sim_rt_init_error(void)
{
    pthread_once(&once, bootstrap);
    return init_error != cudaSuccess ? init_error : cudaErrorInitializationError;
}

CUresult sim_rt_proc_address(const char *symbol, void **fn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    if (!ready())
        return CUDA_ERROR_NOT_INITIALIZED;
    return proc_address(symbol, fn, version, flags, status);
}

void sim_rt_trace_as(const char *op, const char *driver_api)
{
    if (trace_as)
        trace_as(op, driver_api);
}
