/* Scratch device memory and copies on a program's stream (scratch.h). */
#include "streams/scratch.h"
#include "streams/stream_id.h"
#include "tables/hooks.h"

uint64_t pl_scratch_alloc(uint64_t bytes)
{
    void *p = NULL;
    CUdeviceptr d = 0;
    pl_fn_cudaMalloc alloc = TF_REAL(cudaMalloc);
    pl_fn_cuMemAlloc_v2 dalloc = TF_REAL(cuMemAlloc_v2);
    if (alloc)
        return alloc(&p, bytes) == cudaSuccess ? TF_ADDR(p) : 0;
    return dalloc && dalloc(&d, bytes) == CUDA_SUCCESS ? (uint64_t)d : 0;
}

void pl_scratch_free(uint64_t p)
{
    pl_fn_cudaFree release = TF_REAL(cudaFree);
    pl_fn_cuMemFree_v2 drelease = TF_REAL(cuMemFree_v2);
    if (release)
        release((void *)(uintptr_t)p);
    else if (drelease)
        drelease((CUdeviceptr)p);
}

uint64_t pl_scratch_alloc_on(uint64_t bytes, uint64_t stream)
{
    uint64_t on = pl_stream_arg(stream);
    void *p = NULL;
    CUdeviceptr d = 0;
    pl_fn_cudaMallocAsync alloc = TF_REAL(cudaMallocAsync);
    pl_fn_cuMemAllocAsync dalloc = TF_REAL(cuMemAllocAsync);
    if (alloc)
        return alloc(&p, bytes, (cudaStream_t)(uintptr_t)on) == cudaSuccess ? TF_ADDR(p) : 0;
    return dalloc && dalloc(&d, bytes, (CUstream)(uintptr_t)on) == CUDA_SUCCESS ? (uint64_t)d : 0;
}

/* Stream-ordered: the work queued before on `stream` reads it first. A
 * stream that no longer takes work (destroyed meanwhile) leaves the
 * synchronous free, which waits for the device. */
void pl_scratch_free_on(uint64_t p, uint64_t stream)
{
    uint64_t on = pl_stream_arg(stream);
    pl_fn_cudaFreeAsync release = TF_REAL(cudaFreeAsync);
    pl_fn_cuMemFreeAsync drelease = TF_REAL(cuMemFreeAsync);
    if (release && release((void *)(uintptr_t)p, (cudaStream_t)(uintptr_t)on) == cudaSuccess)
        return;
    if (!release && drelease && drelease((CUdeviceptr)p, (CUstream)(uintptr_t)on) == CUDA_SUCCESS)
        return;
    pl_scratch_free(p);
}

int pl_scratch_copy(uint64_t dst, uint64_t src, uint64_t bytes, uint64_t stream)
{
    uint64_t on = pl_stream_arg(stream);
    pl_fn_cudaMemcpyAsync cp = TF_REAL(cudaMemcpyAsync);
    pl_fn_cuMemcpyDtoDAsync_v2 dcp = TF_REAL(cuMemcpyDtoDAsync_v2);
    if (cp)
        return cp((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, cudaMemcpyDeviceToDevice,
                  (cudaStream_t)(uintptr_t)on);
    return dcp ? (int)dcp((CUdeviceptr)dst, (CUdeviceptr)src, bytes, (CUstream)(uintptr_t)on) : -1;
}
