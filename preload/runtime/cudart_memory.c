/* Runtime allocations and frees: the provenance table. Deferral is only
 * legal inside device memory we saw being allocated, so these are reported
 * whether or not anything is pending. */
#include "calls/describe.h"
#include "tables/hooks.h"
#include "core/state.h"
#include "streams/held_free.h"
#include "streams/rt_error.h"

static cudaError_t noted(cudaError_t r, void **p, size_t size, tf_mem_kind kind)
{
    if (r == cudaSuccess && p)
        pl_note_alloc(*p, size, kind);
    return r;
}

cudaError_t cudaMalloc(void **p, size_t size)
{
    TF_REAL_OR(cudaMalloc, TF_MISSING_CUDART);
    return noted(TF_PASS(real(p, size)), p, size, TF_MEM_DEVICE);
}

cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    TF_REAL_OR(cudaMallocPitch, TF_MISSING_CUDART);
    cudaError_t r = TF_PASS(real(p, pitch, width, height));
    return noted(r, p, r == cudaSuccess && pitch ? *pitch * height : 0, TF_MEM_DEVICE);
}

/* A stream-ordered allocation: once more after held frees were given
 * back, when it ran out of memory while transfold held some (the first
 * failure then leaves the program's last error as it was). */
#define POOL_MALLOC(call, stream, api)                                                  \
    ({                                                                                  \
        cudaError_t pl_ar_;                                                             \
        if (!atomic_load_explicit(&pl_held_now, memory_order_relaxed)) {                \
            pl_ar_ = TF_PASS(call);                                                     \
        } else {                                                                        \
            int pl_err_ = pl_rt_error_hold();                                           \
            pl_ar_ = TF_PASS(call);                                                     \
            if (pl_ar_ == cudaErrorMemoryAllocation && pl_holds_return(stream, api)) {  \
                pl_rt_error_release(pl_err_);                                           \
                pl_ar_ = TF_PASS(call);                                                 \
            }                                                                           \
        }                                                                               \
        pl_ar_;                                                                         \
    })

#define MALLOC_ASYNC(NAME, ID)                                                      \
    cudaError_t NAME(void **p, size_t size, cudaStream_t s)                         \
    {                                                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                        \
        return noted(POOL_MALLOC(real(p, size, s), ID(s), #NAME), p, size, TF_MEM_POOL); \
    }
MALLOC_ASYNC(cudaMallocAsync, TF_STREAM)
MALLOC_ASYNC(cudaMallocAsync_ptsz, TF_PTSZ)

#define MALLOC_FROM_POOL(NAME, ID)                                                  \
    cudaError_t NAME(void **p, size_t size, cudaMemPool_t pool, cudaStream_t s)     \
    {                                                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                        \
        return noted(POOL_MALLOC(real(p, size, pool, s), ID(s), #NAME), p, size, TF_MEM_POOL); \
    }
MALLOC_FROM_POOL(cudaMallocFromPoolAsync, TF_STREAM)
MALLOC_FROM_POOL(cudaMallocFromPoolAsync_ptsz, TF_PTSZ)

cudaError_t cudaMallocHost(void **p, size_t size)
{
    TF_REAL_OR(cudaMallocHost, TF_MISSING_CUDART);
    return noted(TF_PASS(real(p, size)), p, size, TF_MEM_HOST);
}

cudaError_t cudaHostAlloc(void **p, size_t size, unsigned int flags)
{
    TF_REAL_OR(cudaHostAlloc, TF_MISSING_CUDART);
    return noted(TF_PASS(real(p, size, flags)), p, size, TF_MEM_HOST);
}

cudaError_t cudaMallocManaged(void **p, size_t size, unsigned int flags)
{
    TF_REAL_OR(cudaMallocManaged, TF_MISSING_CUDART);
    return noted(TF_PASS(real(p, size, flags)), p, size, TF_MEM_MANAGED);
}

cudaError_t cudaFree(void *p)
{
    TF_REAL_OR(cudaFree, TF_MISSING_CUDART);
    return TF_NOTED_FREE(p, 0, "cudaFree", real(p), cudaSuccess);
}

cudaError_t cudaFreeHost(void *p)
{
    TF_REAL_OR(cudaFreeHost, TF_MISSING_CUDART);
    return TF_NOTED_FREE(p, 0, "cudaFreeHost", real(p), cudaSuccess);
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    TF_REAL_OR(cudaFreeAsync, TF_MISSING_CUDART);
    return TF_NOTED_FREE_ASYNC(p, TF_STREAM(s), "cudaFreeAsync", real(p, s), cudaSuccess);
}

cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s)
{
    TF_REAL_OR(cudaFreeAsync_ptsz, TF_MISSING_CUDART);
    return TF_NOTED_FREE_ASYNC(p, TF_PTSZ(s), "cudaFreeAsync", real(p, s), cudaSuccess);
}
