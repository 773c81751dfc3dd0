/* simcublas_announce (access.h): the stand-in's libcuda is reached as the
 * real cuBLAS reaches its driver, dlopen("libcuda.so.1") and
 * cuGetProcAddress_v2, so a preloaded interposer sees the launch on its
 * dlsym and cuGetProcAddress routes. The kernel's twin is exported by this
 * library (simcuda_kernel_simcublas_access): the driver finds it by name in
 * the process. */
#include "access.h"

#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>

#include "args.h"
#include "simcuda.h"

SIMCUDA_TWIN(simcublas_access, 8, 8, 8, 8, 8, 8)
{
    (void)launch, (void)params; /* the call's own code does the work */
}

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*getfn_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
typedef CUresult (*sync_fn)(CUstream);
typedef CUresult (*ctx_sync_fn)(void);
typedef CUresult (*capturing_fn)(CUstream, CUstreamCaptureStatus *);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static launch_fn launch_kernel;
static sync_fn stream_sync;
static capturing_fn stream_capturing;
static ctx_sync_fn ctx_sync;
static CUfunction kernel;

/* Any image does for the stand-in's driver; this names what it stands for. */
static const char image[] = "simcublas: cuBLAS kernels";

static void resolve(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    gpa_fn gpa = lib ? (gpa_fn)dlsym(lib, "cuGetProcAddress_v2") : NULL;
    load_fn load = NULL;
    getfn_fn getfn = NULL;
    launch_fn launch = NULL;
    if (!gpa || gpa("cuModuleLoadData", (void **)&load, 12000, 0, NULL) != CUDA_SUCCESS ||
        gpa("cuModuleGetFunction", (void **)&getfn, 12000, 0, NULL) != CUDA_SUCCESS ||
        gpa("cuLaunchKernel", (void **)&launch, 12000, 0, NULL) != CUDA_SUCCESS ||
        gpa("cuStreamSynchronize", (void **)&stream_sync, 12000, 0, NULL) != CUDA_SUCCESS ||
        gpa("cuStreamIsCapturing", (void **)&stream_capturing, 12000, 0, NULL) != CUDA_SUCCESS ||
        gpa("cuCtxSynchronize", (void **)&ctx_sync, 12000, 0, NULL) != CUDA_SUCCESS)
        return;
    CUmodule mod;
    if (load(&mod, image) == CUDA_SUCCESS && getfn(&kernel, mod, "simcublas_access") == CUDA_SUCCESS)
        launch_kernel = launch;
}

void simcublas_announce(cublasHandle_t h, const void *const *ops, int n)
{
    pthread_once(&once, resolve);
    if (!launch_kernel)
        return;
    const void *args[SIMCUBLAS_ACCESS_OPERANDS] = {0};
    void *params[SIMCUBLAS_ACCESS_OPERANDS];
    for (int i = 0; i < SIMCUBLAS_ACCESS_OPERANDS; i++) {
        args[i] = i < n ? ops[i] : NULL;
        params[i] = &args[i];
    }
    launch_kernel(kernel, 1, 1, 1, 1, 1, 1, 0, (CUstream)h->stream, params, NULL);
}

/* The call's own code computes on the host at call time, so on the
 * asynchronous stand-in the work before it must be done first. Inside a
 * capture the stand-in cannot defer it (a real GPU would): it runs now. */
void simcublas_settle(cudaStream_t stream, bool device)
{
    pthread_once(&once, resolve);
    if (!launch_kernel)
        return;
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
    if (stream_capturing((CUstream)stream, &cs) != CUDA_SUCCESS || cs != CU_STREAM_CAPTURE_STATUS_NONE)
        return;
    if (device)
        ctx_sync();
    else
        stream_sync((CUstream)stream);
}

cublasStatus_t simcublas_gemm_announced(cublasHandle_t h, const simcublas_gemm *r)
{
    cublasStatus_t st = simcublas_gemm_check(h, r);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (r->m > 0 && r->n > 0 && r->batch > 0)
        simcublas_announce(h, (const void *[]){r->a, r->b, r->c}, 3); /* the GEMM queues itself */
    return simcublas_gemm_run(h, r);
}
