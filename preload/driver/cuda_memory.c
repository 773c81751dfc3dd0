/* Driver allocations and frees: the provenance table, whichever route
 * (the program, or a runtime we did not intercept at its own level). */
#include "calls/describe.h"
#include "tables/hooks.h"
#include "core/state.h"
#include "streams/held_free.h"

static CUresult noted(CUresult r, uint64_t base, size_t size, tf_mem_kind kind)
{
    if (r == CUDA_SUCCESS)
        pl_note_alloc((const void *)(uintptr_t)base, size, kind);
    return r;
}

#define NOTED_FREE(p, stream, api, call) \
    TF_NOTED_FREE((const void *)(uintptr_t)(p), stream, api, call, CUDA_SUCCESS)

#define DPTR(p) ((p) ? (uint64_t)*(p) : 0)

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t size)
{
    TF_REAL_OR(cuMemAlloc_v2, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(p, size));
    return noted(r, DPTR(p), size, TF_MEM_DEVICE);
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t width, size_t height, unsigned int elem)
{
    TF_REAL_OR(cuMemAllocPitch_v2, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(p, pitch, width, height, elem));
    return noted(r, DPTR(p), r == CUDA_SUCCESS && pitch ? *pitch * height : 0, TF_MEM_DEVICE);
}

CUresult cuMemAllocManaged(CUdeviceptr *p, size_t size, unsigned int flags)
{
    TF_REAL_OR(cuMemAllocManaged, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(p, size, flags));
    return noted(r, DPTR(p), size, TF_MEM_MANAGED);
}

CUresult cuMemAllocHost_v2(void **p, size_t size)
{
    TF_REAL_OR(cuMemAllocHost_v2, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(p, size));
    return noted(r, p ? TF_ADDR(*p) : 0, size, TF_MEM_HOST);
}

CUresult cuMemHostAlloc(void **p, size_t size, unsigned int flags)
{
    TF_REAL_OR(cuMemHostAlloc, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(p, size, flags));
    return noted(r, p ? TF_ADDR(*p) : 0, size, TF_MEM_HOST);
}

/* A stream-ordered allocation: once more after held frees were given
 * back, when it ran out of memory while transfold held some. */
#define POOL_ALLOC(call, stream, api)                                               \
    ({                                                                              \
        CUresult pl_ar_ = TF_PASS(call);                                            \
        if (pl_ar_ == CUDA_ERROR_OUT_OF_MEMORY && pl_holds_return(stream, api))     \
            pl_ar_ = TF_PASS(call);                                                 \
        pl_ar_;                                                                     \
    })

#define ALLOC_ASYNC(NAME, ID)                                                       \
    CUresult NAME(CUdeviceptr *p, size_t size, CUstream s)                          \
    {                                                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUDA);                                          \
        CUresult r = POOL_ALLOC(real(p, size, s), ID(s), #NAME);                     \
        return noted(r, DPTR(p), size, TF_MEM_POOL);                                \
    }
ALLOC_ASYNC(cuMemAllocAsync, TF_STREAM)
ALLOC_ASYNC(cuMemAllocAsync_ptsz, TF_PTSZ)

#define ALLOC_FROM_POOL(NAME, ID)                                                   \
    CUresult NAME(CUdeviceptr *p, size_t size, CUmemoryPool pool, CUstream s)       \
    {                                                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUDA);                                          \
        CUresult r = POOL_ALLOC(real(p, size, pool, s), ID(s), #NAME);               \
        return noted(r, DPTR(p), size, TF_MEM_POOL);                                \
    }
ALLOC_FROM_POOL(cuMemAllocFromPoolAsync, TF_STREAM)
ALLOC_FROM_POOL(cuMemAllocFromPoolAsync_ptsz, TF_PTSZ)

CUresult cuMemFree_v2(CUdeviceptr p)
{
    TF_REAL_OR(cuMemFree_v2, TF_MISSING_CUDA);
    return NOTED_FREE(p, 0, "cuMemFree", real(p));
}

CUresult cuMemFreeHost(void *p)
{
    TF_REAL_OR(cuMemFreeHost, TF_MISSING_CUDA);
    return NOTED_FREE(TF_ADDR(p), 0, "cuMemFreeHost", real(p));
}

CUresult cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
    TF_REAL_OR(cuMemFreeAsync, TF_MISSING_CUDA);
    return TF_NOTED_FREE_ASYNC((const void *)(uintptr_t)p, TF_STREAM(s), "cuMemFreeAsync", real(p, s), CUDA_SUCCESS);
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s)
{
    TF_REAL_OR(cuMemFreeAsync_ptsz, TF_MISSING_CUDA);
    return TF_NOTED_FREE_ASYNC((const void *)(uintptr_t)p, TF_PTSZ(s), "cuMemFreeAsync", real(p, s), CUDA_SUCCESS);
}
