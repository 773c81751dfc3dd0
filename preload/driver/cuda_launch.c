/* Driver launch routes, and the calls that name their functions. A launch
 * reaching the driver at depth 0 came from neither an intercepted library
 * call nor our own replay: it is the program's (or an uninstrumented
 * library's) own work. */
#include "calls/describe.h"
#include "tables/hooks.h"
#include "launch/launch.h"
#include "launch/launch_entry.h"
#include "launch/names.h"
#include "core/state.h"

/* A lookup by name in a module or library: the handle it yields is known
 * by that name from then on. */
#define NAMED_LOOKUP(NAME, HANDLE_T, OWNER_T)                   \
    CUresult NAME(HANDLE_T *out, OWNER_T owner, const char *name) \
    {                                                           \
        TF_REAL_OR(NAME, TF_MISSING_CUDA);                      \
        CUresult r = TF_PASS(real(out, owner, name));           \
        if (r == CUDA_SUCCESS && out) {                         \
            pl_name_set_copy(*out, name);                       \
            pl_module_set(*out, pl_module_get(owner));          \
        }                                                       \
        return r;                                               \
    }

NAMED_LOOKUP(cuModuleGetFunction, CUfunction, CUmodule)
NAMED_LOOKUP(cuLibraryGetKernel, CUkernel, CUlibrary)

CUresult cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    TF_REAL_OR(cuKernelGetFunction, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(f, k));
    if (r == CUDA_SUCCESS && f) {
        pl_name_alias(*f, k);
        pl_module_set(*f, pl_module_get(k));
    }
    return r;
}

/* A CUfunction's name: remembered, else asked of the driver. A CUkernel
 * passed where a CUfunction is expected (legal since CUDA 12) is named by
 * cuLibraryGetKernel, or by cuKernelGetName. */
static const char *function_name(CUfunction f)
{
    const char *n = pl_name_get(f);
    pl_fn_cuFuncGetName by_func = TF_REAL(cuFuncGetName);
    pl_fn_cuKernelGetName by_kernel = TF_REAL(cuKernelGetName);
    if (n)
        return n;
    if ((by_func && TF_PASS(by_func(&n, f)) == CUDA_SUCCESS && n) ||
        (by_kernel && TF_PASS(by_kernel(&n, (CUkernel)f)) == CUDA_SUCCESS && n))
        pl_name_set_copy(f, n);
    return pl_name_get(f);
}

static int driver_param_info(const void *fn, size_t i, size_t *off, size_t *size)
{
    pl_fn_cuFuncGetParamInfo by_func = TF_REAL(cuFuncGetParamInfo);
    pl_fn_cuKernelGetParamInfo by_kernel = TF_REAL(cuKernelGetParamInfo);
    if (by_func && TF_PASS(by_func((CUfunction)(uintptr_t)fn, i, off, size)) == CUDA_SUCCESS)
        return 0;
    return by_kernel ? (int)TF_PASS(by_kernel((CUkernel)(uintptr_t)fn, i, off, size)) : -1;
}

/* `extra` may carry the parameters already packed. */
static void packed_from_extra(pl_launch *l, void **extra)
{
    const void *buf = NULL;
    size_t len = 0;
    for (size_t i = 0; extra && extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
            len = *(const size_t *)extra[i + 1];
    }
    if (buf && len)
        l->packed = buf, l->packed_len = len;
}

static pl_launch driver_launch(const char *api, CUfunction f, pl_relaunch_fn relaunch, const unsigned grid[3],
                               const unsigned block[3], unsigned shm, uint64_t stream, bool ptsz, void **params, void **extra)
{
    pl_launch l = { .api = api, .name = function_name(f), .grid = { grid[0], grid[1], grid[2] },
                    .block = { block[0], block[1], block[2] }, .shared_mem = shm, .raw_stream = stream, .ptsz_entry = ptsz,
                    .args = params, .fn = f, .param_info = driver_param_info, .relaunch = relaunch };
    if (!params)
        packed_from_extra(&l, extra);
    return l;
}

#define GRID_PARAMS unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shm, CUstream s
#define GRID_ARGS gx, gy, gz, bx, by, bz, shm, s

/* Replays pass the deep-copied parameters as kernelParams, whatever the
 * original used. */
#define R_GRID(r) (CUfunction)(uintptr_t)(r)->fn, (r)->grid[0], (r)->grid[1], (r)->grid[2], (r)->block[0], \
    (r)->block[1], (r)->block[2], (unsigned)(r)->shared_mem, (CUstream)(uintptr_t)(r)->on, (r)->args

#define CU_LAUNCH(NAME, API, PTSZ, EXTRA, PARAMS, ARGS, REPLAY)                               \
    static int relaunch_##NAME(const pl_launch_replay *r)                                       \
    {                                                                                           \
        return TF_REAL(NAME) REPLAY;                                                            \
    }                                                                                           \
    static TF_SLOW_PATH CUresult watched_##NAME(pl_fn_##NAME real, PARAMS)                      \
    {                                                                                           \
        pl_launch l = driver_launch(API, f, relaunch_##NAME, (unsigned[3]){ gx, gy, gz },       \
                                    (unsigned[3]){ bx, by, bz }, shm, TF_ADDR(s), PTSZ, params, EXTRA);   \
        if (pl_launch_begin(&l))                                                                \
            return CUDA_SUCCESS;                                                                \
        CUresult r = TF_PASS(real(ARGS));                                                       \
        pl_launch_end(&l, r == CUDA_SUCCESS);                                                   \
        return r;                                                                               \
    }                                                                                           \
    TF_LAUNCH_OUTER CUresult outer_##NAME(PARAMS)                                               \
    {                                                                                           \
        TF_REAL_OR(NAME, TF_MISSING_CUDA);                                                      \
        if (!pl_launch_watching(f))                                                              \
            return TF_PASS(real(ARGS));                                                         \
        return watched_##NAME(real, ARGS);                                                      \
    }                                                                                           \
    TF_LAUNCH_OUTER CUresult learn_##NAME(PARAMS)                                               \
    {                                                                                           \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                                \
        if (!real)                                                                              \
            return outer_##NAME(ARGS);                                                          \
        if (learn_recent(f))                                                                    \
            return watched_##NAME(real, ARGS);                                                  \
        return TF_PASS(real(ARGS));                                                             \
    }                                                                                           \
    TF_LAUNCH_ENTRY(NAME, CUresult, (PARAMS), (ARGS))

#define KERNEL_PARAMS CUfunction f, GRID_PARAMS, void **params, void **extra
#define KERNEL_ARGS f, GRID_ARGS, params, extra
#define COOP_PARAMS CUfunction f, GRID_PARAMS, void **params
#define COOP_ARGS f, GRID_ARGS, params
#define KERNEL_REPLAY (R_GRID(r), NULL)
#define COOP_REPLAY (R_GRID(r))
CU_LAUNCH(cuLaunchKernel, "cuLaunchKernel", false, extra, KERNEL_PARAMS, KERNEL_ARGS, KERNEL_REPLAY)
CU_LAUNCH(cuLaunchKernel_ptsz, "cuLaunchKernel", true, extra, KERNEL_PARAMS, KERNEL_ARGS, KERNEL_REPLAY)
CU_LAUNCH(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", false, NULL, COOP_PARAMS, COOP_ARGS, COOP_REPLAY)
CU_LAUNCH(cuLaunchCooperativeKernel_ptsz, "cuLaunchCooperativeKernel", true, NULL, COOP_PARAMS, COOP_ARGS, COOP_REPLAY)

#define CU_LAUNCH_EX(NAME, PTSZ)                                                                \
    static int relaunch_##NAME(const pl_launch_replay *r)                                       \
    {                                                                                           \
        CUlaunchConfig c = { .gridDimX = r->grid[0], .gridDimY = r->grid[1], .gridDimZ = r->grid[2], \
                             .blockDimX = r->block[0], .blockDimY = r->block[1],                \
                             .blockDimZ = r->block[2], .sharedMemBytes = (unsigned)r->shared_mem, \
                             .hStream = (CUstream)(uintptr_t)r->on,                         \
                             .attrs = (CUlaunchAttribute *)r->attrs, .numAttrs = r->nattrs };   \
        return TF_REAL(NAME)(&c, (CUfunction)(uintptr_t)r->fn, r->args, NULL);                  \
    }                                                                                           \
    static TF_SLOW_PATH CUresult watched_##NAME(pl_fn_##NAME real, const CUlaunchConfig *c, CUfunction f, \
                                                void **params, void **extra)                    \
    {                                                                                           \
        CUstream s = c->hStream;                                                                \
        pl_launch l = driver_launch("cuLaunchKernelEx", f, relaunch_##NAME,                     \
                                    (unsigned[3]){ c->gridDimX, c->gridDimY, c->gridDimZ },     \
                                    (unsigned[3]){ c->blockDimX, c->blockDimY, c->blockDimZ },  \
                                    c->sharedMemBytes, TF_ADDR(s), PTSZ, params, extra);                  \
        l.attrs = c->attrs, l.nattrs = c->attrs ? c->numAttrs : 0;                              \
        l.attr_size = sizeof(CUlaunchAttribute);                                                \
        if (pl_launch_begin(&l))                                                                \
            return CUDA_SUCCESS;                                                                \
        CUresult r = TF_PASS(real(c, f, params, extra));                                        \
        pl_launch_end(&l, r == CUDA_SUCCESS);                                                   \
        return r;                                                                               \
    }                                                                                           \
    TF_LAUNCH_OUTER CUresult outer_##NAME(const CUlaunchConfig *c, CUfunction f, void **params,  \
                                          void **extra)                                         \
    {                                                                                           \
        TF_REAL_OR(NAME, TF_MISSING_CUDA);                                                      \
        if (!c || !pl_launch_watching(f))                                                        \
            return TF_PASS(real(c, f, params, extra));                                          \
        return watched_##NAME(real, c, f, params, extra);                                       \
    }                                                                                           \
    TF_LAUNCH_OUTER CUresult learn_##NAME(const CUlaunchConfig *c, CUfunction f, void **params,  \
                                          void **extra)                                         \
    {                                                                                           \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                                \
        if (!real || !c)                                                                        \
            return outer_##NAME(c, f, params, extra);                                           \
        if (learn_recent(f))                                                                    \
            return watched_##NAME(real, c, f, params, extra);                                   \
        return TF_PASS(real(c, f, params, extra));                                              \
    }                                                                                           \
    TF_LAUNCH_ENTRY(NAME, CUresult, (const CUlaunchConfig *c, CUfunction f, void **params, void **extra), \
                    (c, f, params, extra))

CU_LAUNCH_EX(cuLaunchKernelEx, false)
CU_LAUNCH_EX(cuLaunchKernelEx_ptsz, true)
