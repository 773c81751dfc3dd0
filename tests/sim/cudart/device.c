/* The device: one, ordinal 0, described by the driver's attributes. */
#include "internal.h"

#include <string.h>

cudaError_t cudaGetDeviceCount(int *n)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGetCount)(n));
}

cudaError_t cudaGetDevice(int *dev)
{
    SIM_RT_DRIVER(d, false);
    if (!dev)
        return sim_rt_return(cudaErrorInvalidValue);
    *dev = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    SIM_RT_DRIVER(d, false);
    return dev == 0 ? cudaSuccess : sim_rt_return(cudaErrorInvalidDevice);
}

cudaError_t cudaInitDevice(int dev, unsigned int deviceFlags, unsigned int flags)
{
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(dev);
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    (void)flags;
    SIM_RT_DRIVER(d, false);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return sim_rt_return(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuCtxSynchronize)());
}

/* Allocations are not reclaimed: the stand-in's driver keeps them, which a
 * program that resets and exits never notices. */
cudaError_t cudaDeviceReset(void)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDevicePrimaryCtxReset)(0));
}

/* cudaDeviceAttr values are the driver's CUdevice_attribute values. */
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int dev)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuDeviceGetAttribute)(value, (CUdevice_attribute)attr, dev));
}

static int attr(const struct sim_drv *d, CUdevice_attribute a)
{
    int v = 0;
    DRV(d, cuDeviceGetAttribute)(&v, a, 0);
    return v;
}

static void fill_limits(const struct sim_drv *d, struct cudaDeviceProp *p)
{
    p->sharedMemPerBlock = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p->sharedMemPerBlockOptin = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    p->sharedMemPerMultiprocessor = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    p->regsPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p->regsPerMultiprocessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p->warpSize = attr(d, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p->memPitch = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_MAX_PITCH);
    p->maxThreadsPerBlock = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = attr(d, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
        p->maxGridSize[i] = attr(d, (CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
    }
    p->totalConstMem = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    p->textureAlignment = (size_t)attr(d, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
    p->multiProcessorCount = attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    p->maxThreadsPerMultiProcessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p->maxBlocksPerMultiProcessor = attr(d, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    p->memoryBusWidth = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    p->l2CacheSize = attr(d, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
}

static void fill_features(const struct sim_drv *d, struct cudaDeviceProp *p)
{
    p->major = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p->minor = attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p->canMapHostMemory = attr(d, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
    p->concurrentKernels = attr(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
    p->pciBusID = attr(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
    p->asyncEngineCount = attr(d, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
    p->unifiedAddressing = attr(d, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
    p->streamPrioritiesSupported = attr(d, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
    p->globalL1CacheSupported = attr(d, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
    p->localL1CacheSupported = attr(d, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
    p->managedMemory = attr(d, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
    p->pageableMemoryAccess = attr(d, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
    p->concurrentManagedAccess = attr(d, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
    p->cooperativeLaunch = attr(d, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
    p->directManagedMemAccessFromHost = attr(d, CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
    p->memoryPoolsSupported = attr(d, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev)
{
    SIM_RT_DRIVER(d, false);
    if (!p)
        return sim_rt_return(cudaErrorInvalidValue);
    if (dev != 0)
        return sim_rt_return(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    DRV(d, cuDeviceGetName)(p->name, sizeof p->name, 0);
    DRV(d, cuDeviceTotalMem)(&p->totalGlobalMem, 0);
    fill_limits(d, p);
    fill_features(d, p);
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return sim_rt_return(cudaErrorInvalidValue);
    *v = SIM_RUNTIME_VERSION;
    return cudaSuccess;
}

/* Answers 0 (no driver) rather than failing when the driver is missing, as
 * the real runtime does. */
cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return sim_rt_return(cudaErrorInvalidValue);
    const struct sim_drv *d = sim_rt_drv();
    *v = 0;
    if (d)
        DRV(d, cuDriverGetVersion)(v);
    return cudaSuccess;
}
