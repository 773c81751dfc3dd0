/* The launch half of the ABI and the public launch APIs. Every launch goes
 * through the driver's launch function from cuGetProcAddress_v2, so a
 * preload that wraps the resolver sees it; the driver traces the kernel. */
#include "internal.h"

#define SIM_CONFIG_DEPTH 16

struct sim_config { dim3 grid, block; size_t shared; cudaStream_t stream; };

/* <<<>>> pushes, the stub pops; nesting happens when an argument
 * expression itself launches. */
static __thread struct sim_config configs[SIM_CONFIG_DEPTH];
static __thread unsigned nconfigs;

SIM_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st *stream);
SIM_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream);
SIM_API cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s);
SIM_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s);

/* Nonzero makes the generated code skip the launch. */
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st *stream)
{
    if (nconfigs == SIM_CONFIG_DEPTH)
        return 1;
    configs[nconfigs++] = (struct sim_config){grid, block, shared, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
    if (nconfigs == 0)
        return sim_rt_return(cudaErrorMissingConfiguration);
    const struct sim_config *c = &configs[--nconfigs];
    *grid = c->grid;
    *block = c->block;
    *shared = c->shared;
    *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

/* What a failed driver launch means to a runtime caller. */
static cudaError_t launch_error(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_NOT_FOUND:
    case CUDA_ERROR_INVALID_HANDLE: return cudaErrorInvalidDeviceFunction;
    case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidConfiguration;
    default: return sim_rt_error(r);
    }
}

static cudaError_t launch(const char *op, bool pt, CUkernel k, dim3 grid, dim3 block, void **args,
                          size_t shared, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (!k)
        return sim_rt_return(cudaErrorInvalidDeviceFunction);
    CUresult r = SIM_RT_AS(op, "cuLaunchKernel",
                           DRV(d, cuLaunchKernel)((CUfunction)k, grid.x, grid.y, grid.z, block.x, block.y,
                                                  block.z, (unsigned)shared, s, args, NULL));
    return sim_rt_return(launch_error(r));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s)
{
    return launch("__cudaLaunchKernel", false, (CUkernel)k, grid, block, args, shared, s);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s)
{
    return launch("__cudaLaunchKernel_ptsz", true, (CUkernel)k, grid, block, args, shared, s);
}

/* `func` is a registered host stub or, since CUDA 12, a cudaKernel_t; the
 * driver recognizes its own handles. */
static cudaError_t kernel_of(const void *func, CUkernel *k)
{
    cudaError_t e = sim_rt_kernel_for(func, k);
    if (e != cudaErrorInvalidDeviceFunction || !func)
        return e;
    const char *name;
    const struct sim_drv *d = sim_rt_drv();
    if (d && DRV(d, cuKernelGetName)(&name, (CUkernel)func) == CUDA_SUCCESS) {
        *k = (CUkernel)func;
        return cudaSuccess;
    }
    return e;
}

static cudaError_t launch_func(const char *op, bool pt, const void *func, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t s)
{
    CUkernel k = NULL;
    cudaError_t e = kernel_of(func, &k);
    if (e != cudaSuccess)
        return sim_rt_return(e);
    return launch(op, pt, k, grid, block, args, shared, s);
}

SIM_API __typeof__(cudaLaunchKernel) cudaLaunchKernel_ptsz;
SIM_API __typeof__(cudaLaunchCooperativeKernel) cudaLaunchCooperativeKernel_ptsz;
SIM_API __typeof__(cudaLaunchKernelExC) cudaLaunchKernelExC_ptsz;

cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s)
{
    return launch_func("cudaLaunchKernel", false, f, g, b, args, sh, s);
}

cudaError_t cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s)
{
    return launch_func("cudaLaunchKernel_ptsz", true, f, g, b, args, sh, s);
}

static cudaError_t launch_coop(const char *op, bool pt, const void *func, dim3 grid, dim3 block, void **args,
                               size_t shared, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    CUkernel k = NULL;
    cudaError_t e = kernel_of(func, &k);
    if (e != cudaSuccess)
        return sim_rt_return(e);
    CUresult r = SIM_RT_AS(op, "cuLaunchCooperativeKernel",
                           DRV(d, cuLaunchCooperativeKernel)((CUfunction)k, grid.x, grid.y, grid.z, block.x,
                                                             block.y, block.z, (unsigned)shared, s, args));
    return sim_rt_return(launch_error(r));
}

cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s)
{
    return launch_coop("cudaLaunchCooperativeKernel", false, f, g, b, args, sh, s);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *f, dim3 g, dim3 b, void **args, size_t sh, cudaStream_t s)
{
    return launch_coop("cudaLaunchCooperativeKernel_ptsz", true, f, g, b, args, sh, s);
}

/* cudaLaunchAttribute and CUlaunchAttribute share their layout and ids, so
 * the attributes pass through unchanged. */
static cudaError_t launch_ex(const char *op, bool pt, const cudaLaunchConfig_t *c, const void *func, void **args)
{
    SIM_RT_DRIVER(d, pt);
    if (!c)
        return sim_rt_return(cudaErrorInvalidValue);
    CUkernel k = NULL;
    cudaError_t e = kernel_of(func, &k);
    if (e != cudaSuccess)
        return sim_rt_return(e);
    CUlaunchConfig dc = {c->gridDim.x, c->gridDim.y, c->gridDim.z, c->blockDim.x, c->blockDim.y, c->blockDim.z,
                         (unsigned)c->dynamicSmemBytes, c->stream, (CUlaunchAttribute *)c->attrs, c->numAttrs};
    CUresult r = SIM_RT_AS(op, "cuLaunchKernelEx", DRV(d, cuLaunchKernelEx)(&dc, (CUfunction)k, args, NULL));
    return sim_rt_return(launch_error(r));
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *f, void **args)
{
    return launch_ex("cudaLaunchKernelExC", false, c, f, args);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *c, const void *f, void **args)
{
    return launch_ex("cudaLaunchKernelExC_ptsz", true, c, f, args);
}

static cudaError_t host_func(const char *op, bool pt, cudaStream_t s, cudaHostFn_t fn, void *data)
{
    SIM_RT_DRIVER(d, pt);
    CUresult r = SIM_RT_AS(op, "cuLaunchHostFunc", DRV(d, cuLaunchHostFunc)(s, fn, data));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaLaunchHostFunc) cudaLaunchHostFunc_ptsz;
cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data) { return host_func("cudaLaunchHostFunc", false, s, fn, data); }
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t s, cudaHostFn_t fn, void *data) { return host_func("cudaLaunchHostFunc_ptsz", true, s, fn, data); }
