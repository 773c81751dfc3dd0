/* Memory pools (the device's default pool only), graph memory and pitched
 * allocation. The pool and graph-memory enums and structs have the
 * driver's values and layouts. */
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

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemPoolSetAttribute)(pool, (CUmemPool_attribute)attr, value));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr, void *value)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemPoolGetAttribute)(pool, (CUmemPool_attribute)attr, value));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t min_bytes_to_keep)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemPoolTrimTo)(pool, min_bytes_to_keep));
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const struct cudaMemAccessDesc *map, size_t count)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemPoolSetAccess)(pool, (const CUmemAccessDesc *)map, count));
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t pool, struct cudaMemLocation *location)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemPoolGetAccess)((CUmemAccess_flags *)flags, pool, (CUmemLocation *)location));
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGetGraphMemAttribute)(device, (CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceSetGraphMemAttribute)(device, (CUgraphMem_attribute)attr, value));
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGraphMemTrim)(device));
}
