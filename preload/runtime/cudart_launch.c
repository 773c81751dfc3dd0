/* Runtime launch routes, and the registrations that name their kernels. */
#include "calls/describe.h"
#include "tables/hooks.h"
#include "launch/launch.h"
#include "launch/launch_entry.h"
#include "launch/names.h"
#include "streams/replay.h"
#include "core/state.h"

void __cudaRegisterFunction(void **fatbin, const char *host_fn, char *device_fn, const char *device_name,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bdim, dim3 *gdim, int *wsize)
{
    pl_fn___cudaRegisterFunction real = TF_REAL(__cudaRegisterFunction);
    pl_name_set(host_fn, device_name);
    pl_launch_family_registered(host_fn, device_name);
    if (real)
        TF_PASS_VOID(real(fatbin, host_fn, device_fn, device_name, thread_limit, tid, bid, bdim, gdim, wsize));
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fn)
{
    TF_REAL_OR(__cudaGetKernel, TF_MISSING_CUDART);
    cudaError_t r = TF_PASS(real(kernel, host_fn));
    if (r == cudaSuccess && kernel) {
        pl_name_alias(*kernel, host_fn);
        pl_launch_family_alias(*kernel, host_fn);
        pl_kernel_set(host_fn, *kernel);
    }
    return r;
}

/* A cudaKernel_t is a CUkernel: the driver knows its parameters. */
static int kernel_param_info(const void *kernel, size_t i, size_t *off, size_t *size)
{
    pl_fn_cuKernelGetParamInfo info = TF_REAL(cuKernelGetParamInfo);
    return kernel && info ? (int)TF_PASS(info((CUkernel)(uintptr_t)kernel, i, off, size)) : -1;
}

/* The kernel behind a host stub: as __cudaGetKernel said, else asked. */
static const void *stub_kernel(const void *fn)
{
    const void *k = pl_kernel_get(fn);
    cudaKernel_t got = NULL;
    pl_fn_cudaGetKernel get = TF_REAL(cudaGetKernel);
    if (k || !get)
        return k;
    int held = pl_rt_error_hold(); /* a stub it does not know is the launch's error to report */
    cudaError_t r = TF_PASS(get(&got, fn));
    pl_rt_error_release(held);
    if (r != cudaSuccess)
        return NULL;
    pl_kernel_set(fn, got);
    return got;
}

/* A host stub: the driver's answer for its kernel. Not the runtime's
 * cudaFuncGetParamInfo: probing past the last parameter would leave an
 * error for the program's next cudaGetLastError. */
static int stub_param_info(const void *fn, size_t i, size_t *off, size_t *size)
{
    return kernel_param_info(stub_kernel(fn), i, off, size);
}

static dim3 dim3_of(const unsigned v[3]) { return (dim3){ v[0], v[1], v[2] }; }

static pl_launch runtime_launch(const char *api, const void *fn, pl_param_info_fn info, pl_relaunch_fn relaunch,
                                dim3 g, dim3 b, void **args, size_t shm, uint64_t stream, bool ptsz)
{
    return (pl_launch){ .api = api, .name = pl_name_get(fn), .grid = { g.x, g.y, g.z },
                        .block = { b.x, b.y, b.z }, .shared_mem = shm, .raw_stream = stream, .ptsz_entry = ptsz, .args = args,
                        .fn = fn, .param_info = info, .relaunch = relaunch };
}

/* One hook per runtime launch entry point, and its replay through the same
 * real function. PTSZ: a per-thread entry point (0 is the per-thread stream). */
#define LAUNCH_HOOK(NAME, FN_T, INFO, API, PTSZ)                                                \
    static int relaunch_##NAME(const pl_launch_replay *r)                                       \
    {                                                                                           \
        return TF_REAL(NAME)((FN_T)(uintptr_t)r->fn, dim3_of(r->grid), dim3_of(r->block),       \
                             r->args, r->shared_mem, (cudaStream_t)(uintptr_t)r->on);       \
    }                                                                                           \
    static TF_SLOW_PATH cudaError_t watched_##NAME(FN_T fn, dim3 g, dim3 b, void **args, size_t shm, \
                                                   cudaStream_t s)                              \
    {                                                                                           \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                                \
        pl_launch l = runtime_launch(API, (const void *)fn, INFO, relaunch_##NAME, g, b, args,  \
                                     shm, TF_ADDR(s), PTSZ);                                              \
        if (pl_launch_begin(&l))                                                                \
            return cudaSuccess;                                                                 \
        cudaError_t r = TF_PASS(real(fn, g, b, args, shm, s));                                  \
        pl_launch_end(&l, r == cudaSuccess);                                                    \
        return r;                                                                               \
    }                                                                                           \
    TF_LAUNCH_OUTER cudaError_t outer_##NAME(FN_T fn, dim3 g, dim3 b, void **args, size_t shm,  \
                                             cudaStream_t s)                                    \
    {                                                                                           \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                    \
        if (!pl_launch_watching(fn))                                                              \
            return TF_PASS(real(fn, g, b, args, shm, s));                                       \
        return watched_##NAME(fn, g, b, args, shm, s);                                          \
    }                                                                                           \
    TF_LAUNCH_OUTER cudaError_t learn_##NAME(FN_T fn, dim3 g, dim3 b, void **args, size_t shm,  \
                                             cudaStream_t s)                                    \
    {                                                                                           \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                                \
        if (!real)                                                                              \
            return outer_##NAME(fn, g, b, args, shm, s);                                        \
        if (learn_recent(fn))                                                                   \
            return watched_##NAME(fn, g, b, args, shm, s);                                      \
        return TF_PASS(real(fn, g, b, args, shm, s));                                           \
    }                                                                                           \
    TF_LAUNCH_ENTRY(NAME, cudaError_t, (FN_T fn, dim3 g, dim3 b, void **args, size_t shm, cudaStream_t s), \
                    (fn, g, b, args, shm, s))

LAUNCH_HOOK(cudaLaunchKernel, const void *, stub_param_info, "cudaLaunchKernel", false)
LAUNCH_HOOK(cudaLaunchKernel_ptsz, const void *, stub_param_info, "cudaLaunchKernel", true)
LAUNCH_HOOK(cudaLaunchCooperativeKernel, const void *, stub_param_info, "cudaLaunchCooperativeKernel", false)
LAUNCH_HOOK(cudaLaunchCooperativeKernel_ptsz, const void *, stub_param_info, "cudaLaunchCooperativeKernel",
            true)
LAUNCH_HOOK(__cudaLaunchKernel, cudaKernel_t, kernel_param_info, "__cudaLaunchKernel", false)
LAUNCH_HOOK(__cudaLaunchKernel_ptsz, cudaKernel_t, kernel_param_info, "__cudaLaunchKernel", true)

#define LAUNCH_EX_HOOK(NAME, PTSZ)                                                              \
    static int relaunch_##NAME(const pl_launch_replay *r)                                       \
    {                                                                                           \
        cudaLaunchConfig_t c = { .gridDim = dim3_of(r->grid), .blockDim = dim3_of(r->block),    \
                                 .dynamicSmemBytes = r->shared_mem,                             \
                                 .stream = (cudaStream_t)(uintptr_t)r->on,                  \
                                 .attrs = (cudaLaunchAttribute *)r->attrs,                      \
                                 .numAttrs = r->nattrs };                                       \
        return TF_REAL(NAME)(&c, r->fn, r->args);                                               \
    }                                                                                           \
    static TF_SLOW_PATH cudaError_t watched_##NAME(pl_fn_##NAME real, const cudaLaunchConfig_t *c, \
                                                   const void *fn, void **args)                 \
    {                                                                                           \
        cudaStream_t s = c->stream;                                                             \
        pl_launch l = runtime_launch("cudaLaunchKernelExC", fn, stub_param_info, relaunch_##NAME, \
                                     c->gridDim, c->blockDim, args, c->dynamicSmemBytes, TF_ADDR(s), PTSZ); \
        l.attrs = c->attrs, l.nattrs = c->attrs ? c->numAttrs : 0;                              \
        l.attr_size = sizeof(cudaLaunchAttribute);                                              \
        if (pl_launch_begin(&l))                                                                \
            return cudaSuccess;                                                                 \
        cudaError_t r = TF_PASS(real(c, fn, args));                                             \
        pl_launch_end(&l, r == cudaSuccess);                                                    \
        return r;                                                                               \
    }                                                                                           \
    TF_LAUNCH_OUTER cudaError_t outer_##NAME(const cudaLaunchConfig_t *c, const void *fn, void **args) \
    {                                                                                           \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                    \
        if (!c || !pl_launch_watching(fn))                                                        \
            return TF_PASS(real(c, fn, args));                                                  \
        return watched_##NAME(real, c, fn, args);                                               \
    }                                                                                           \
    TF_LAUNCH_OUTER cudaError_t learn_##NAME(const cudaLaunchConfig_t *c, const void *fn, void **args) \
    {                                                                                           \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                                \
        if (!real || !c)                                                                        \
            return outer_##NAME(c, fn, args);                                                   \
        if (learn_recent(fn))                                                                   \
            return watched_##NAME(real, c, fn, args);                                           \
        return TF_PASS(real(c, fn, args));                                                      \
    }                                                                                           \
    TF_LAUNCH_ENTRY(NAME, cudaError_t, (const cudaLaunchConfig_t *c, const void *fn, void **args), (c, fn, args))

LAUNCH_EX_HOOK(cudaLaunchKernelExC, false)
LAUNCH_EX_HOOK(cudaLaunchKernelExC_ptsz, true)
