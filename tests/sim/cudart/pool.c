/* Memory pools (the device's default pool only) and pitched allocation. */
#include "internal.h"

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGetDefaultMemPool)(pool, dev));
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGetMemPool)(pool, dev));
}

static cudaError_t from_pool(const char *op, bool pt, void **p, size_t n, cudaMemPool_t pool, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    SIM_RT_ALLOC_ARGS(p, n);
    CUresult r = SIM_RT_AS(op, "cuMemAllocFromPoolAsync",
                           DRV(d, cuMemAllocFromPoolAsync)((CUdeviceptr *)p, n, pool, s));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaMallocFromPoolAsync) cudaMallocFromPoolAsync_ptsz;
cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t pool, cudaStream_t s)
{
    return from_pool("cudaMallocFromPoolAsync", false, p, n, pool, s);
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **p, size_t n, cudaMemPool_t pool, cudaStream_t s)
{
    return from_pool("cudaMallocFromPoolAsync_ptsz", true, p, n, pool, s);
}

/* The runtime pitches for 16-byte elements, the widest the driver knows. */
cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    SIM_RT_DRIVER(d, false);
    if (!p || !pitch)
        return sim_rt_return(cudaErrorInvalidValue);
    if (width == 0 || height == 0) {
        *p = NULL;
        *pitch = width;
        return cudaSuccess;
    }
    CUresult r = SIM_RT_AS("cudaMallocPitch", "cuMemAllocPitch",
                           DRV(d, cuMemAllocPitch)((CUdeviceptr *)p, pitch, width, height, 16));
    return sim_rt_result(r);
}
