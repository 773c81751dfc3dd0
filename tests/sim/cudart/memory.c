/* Allocation, through the driver's allocators. */
#include "internal.h"

#include <stdint.h>

cudaError_t cudaMalloc(void **p, size_t n)
{
    SIM_RT_DRIVER(d, false);
    SIM_RT_ALLOC_ARGS(p, n);
    return sim_rt_result(SIM_RT_AS("cudaMalloc", "cuMemAlloc", DRV(d, cuMemAlloc)((CUdeviceptr *)p, n)));
}

cudaError_t cudaFree(void *p)
{
    SIM_RT_DRIVER(d, false);
    if (!p) /* also the idiom that merely initializes the runtime */
        return cudaSuccess;
    return sim_rt_result(SIM_RT_AS("cudaFree", "cuMemFree", DRV(d, cuMemFree)((CUdeviceptr)p)));
}

static cudaError_t malloc_async(const char *op, bool pt, void **p, size_t n, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    SIM_RT_ALLOC_ARGS(p, n);
    return sim_rt_result(SIM_RT_AS(op, "cuMemAllocAsync", DRV(d, cuMemAllocAsync)((CUdeviceptr *)p, n, s)));
}

static cudaError_t free_async(const char *op, bool pt, void *p, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (!p)
        return cudaSuccess;
    return sim_rt_result(SIM_RT_AS(op, "cuMemFreeAsync", DRV(d, cuMemFreeAsync)((CUdeviceptr)p, s)));
}

SIM_API __typeof__(cudaMallocAsync) cudaMallocAsync_ptsz;
SIM_API __typeof__(cudaFreeAsync) cudaFreeAsync_ptsz;
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) { return malloc_async("cudaMallocAsync", false, p, n, s); }
cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s) { return malloc_async("cudaMallocAsync_ptsz", true, p, n, s); }
cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return free_async("cudaFreeAsync", false, p, s); }
cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s) { return free_async("cudaFreeAsync_ptsz", true, p, s); }

cudaError_t cudaMallocHost(void **p, size_t n)
{
    SIM_RT_DRIVER(d, false);
    SIM_RT_ALLOC_ARGS(p, n);
    return sim_rt_result(SIM_RT_AS("cudaMallocHost", "cuMemAllocHost", DRV(d, cuMemAllocHost)(p, n)));
}

cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
    SIM_RT_DRIVER(d, false);
    SIM_RT_ALLOC_ARGS(p, n);
    return sim_rt_result(SIM_RT_AS("cudaHostAlloc", "cuMemHostAlloc", DRV(d, cuMemHostAlloc)(p, n, flags)));
}

cudaError_t cudaFreeHost(void *p)
{
    SIM_RT_DRIVER(d, false);
    if (!p)
        return cudaSuccess;
    return sim_rt_result(SIM_RT_AS("cudaFreeHost", "cuMemFreeHost", DRV(d, cuMemFreeHost)(p)));
}

cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags)
{
    SIM_RT_DRIVER(d, false);
    SIM_RT_ALLOC_ARGS(p, n);
    CUresult r = SIM_RT_AS("cudaMallocManaged", "cuMemAllocManaged",
                           DRV(d, cuMemAllocManaged)((CUdeviceptr *)p, n, flags));
    return sim_rt_result(r);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuMemGetInfo)(free_bytes, total));
}

/* Memory the driver does not know is "unregistered" host memory: success,
 * as the runtime reports it since CUDA 11. */
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *ptr)
{
    SIM_RT_DRIVER(d, false);
    if (!a)
        return sim_rt_return(cudaErrorInvalidValue);
    unsigned int type = 0, managed = 0;
    int ordinal = -2;
    void *dev = NULL, *host = NULL;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                   CU_POINTER_ATTRIBUTE_HOST_POINTER};
    void *data[] = {&type, &managed, &ordinal, &dev, &host};
    CUresult r = DRV(d, cuPointerGetAttributes)(5, attrs, data, (CUdeviceptr)(uintptr_t)ptr);
    if (r != CUDA_SUCCESS)
        return sim_rt_result(r);
    a->type = managed ? cudaMemoryTypeManaged
            : type == CU_MEMORYTYPE_DEVICE ? cudaMemoryTypeDevice
            : type == CU_MEMORYTYPE_HOST ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered;
    a->device = a->type == cudaMemoryTypeUnregistered ? -2 : ordinal;
    a->devicePointer = a->type == cudaMemoryTypeUnregistered ? NULL : dev;
    a->hostPointer = a->type == cudaMemoryTypeDevice ? NULL : a->type == cudaMemoryTypeUnregistered ? (void *)ptr : host;
    return cudaSuccess;
}
