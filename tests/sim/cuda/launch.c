/* Launches: validate like the driver, then submit the kernel as work. The
 * twin runs once for the whole grid (it loops over blocks and threads
 * itself). */
#include "work.h"

#define SIM_MAX_PARAMS 256

/* Unpacks CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE into one pointer a parameter,
 * using the twin's parameter sizes for the offsets. */
static CUresult params_from_extra(struct CUfunc_st *f, void **extra, void **out)
{
    char *buf = NULL;
    size_t size = 0;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            size = *(size_t *)extra[i + 1];
        else
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (!buf || !f->param_sizes)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; f->param_sizes[i]; i++) {
        size_t off, psize;
        if (i == SIM_MAX_PARAMS || cuFuncGetParamInfo(f, i, &off, &psize) != CUDA_SUCCESS || off + psize > size)
            return CUDA_ERROR_INVALID_VALUE;
        out[i] = buf + off;
    }
    return CUDA_SUCCESS;
}

static CUresult validate(struct CUfunc_st *f, const unsigned grid[3], const unsigned block[3], CUstream s)
{
    if (!sim_function_ok(f) || !sim_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2])
        return CUDA_ERROR_INVALID_VALUE;
    if ((unsigned long long)block[0] * block[1] * block[2] > 1024 || block[2] > 64 || grid[1] > 65535 || grid[2] > 65535)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult launch(const char *api, CUfunction f, const unsigned grid[3], const unsigned block[3],
                       unsigned shared, CUstream s, void **params, void **extra)
{
    struct sim_work w = {.kind = SIM_WORK_KERNEL, .op = sim_op_name(api), .stream = s};
    CUresult r = validate(f, grid, block, s);
    if (r != CUDA_SUCCESS)
        return r;
    void *unpacked[SIM_MAX_PARAMS];
    if (!params && extra) {
        if ((r = params_from_extra(f, extra, unpacked)) != CUDA_SUCCESS)
            return r;
        params = unpacked;
    }
    w.u.kernel.f = f;
    w.u.kernel.l = (simcuda_launch){{grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, shared};
    w.u.kernel.params = params;
    return sim_submit(&w, api, false);
}

#define GRID ((const unsigned[3]){gx, gy, gz})
#define BLOCK ((const unsigned[3]){bx, by, bz})

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    return launch("cuLaunchKernel", f, GRID, BLOCK, shared, s, params, extra);
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared, CUstream s, void **params, void **extra)
{
    return launch("cuLaunchKernel_ptsz", f, GRID, BLOCK, shared, s, params, extra);
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned shared, CUstream s, void **params)
{
    return launch("cuLaunchCooperativeKernel", f, GRID, BLOCK, shared, s, params, NULL);
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shared, CUstream s, void **params)
{
    return launch("cuLaunchCooperativeKernel_ptsz", f, GRID, BLOCK, shared, s, params, NULL);
}

/* Launch attributes (clusters, priorities, ...) change scheduling only,
 * which the stand-in does not model. */
static CUresult launch_ex(const char *api, const CUlaunchConfig *c, CUfunction f, void **params, void **extra)
{
    if (!c) {
        sim_op_name(api);
        return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
    unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
    return launch(api, f, grid, block, c->sharedMemBytes, c->hStream, params, extra);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **p, void **e) { return launch_ex("cuLaunchKernelEx", c, f, p, e); }
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f, void **p, void **e) { return launch_ex("cuLaunchKernelEx_ptsz", c, f, p, e); }

/* Host functions run in stream order (async.h: on their own thread). */
static CUresult host_func(const char *api, CUstream s, CUhostFn fn, void *data)
{
    struct sim_work w = {.kind = SIM_WORK_HOST, .op = sim_op_name(api), .stream = s};
    w.u.host.fn = fn;
    w.u.host.data = data;
    return sim_submit(&w, api, false);
}

CUresult cuLaunchHostFunc(CUstream s, CUhostFn fn, void *data) { return host_func("cuLaunchHostFunc", s, fn, data); }
CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *data) { return host_func("cuLaunchHostFunc_ptsz", s, fn, data); }
