/* Kernel attributes, answered by the driver for the kernel's CUkernel. */
#include "internal.h"

#include <string.h>

static int kattr(const struct sim_drv *d, CUkernel k, CUfunction_attribute a)
{
    int v = 0;
    DRV(d, cuKernelGetAttribute)(&v, a, k, 0);
    return v;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func)
{
    SIM_RT_DRIVER(d, false);
    if (!a)
        return sim_rt_return(cudaErrorInvalidValue);
    CUkernel k;
    cudaError_t e = sim_rt_kernel_for(func, &k);
    if (e != cudaSuccess)
        return sim_rt_return(e);
    memset(a, 0, sizeof *a);
    a->sharedSizeBytes = (size_t)kattr(d, k, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    a->constSizeBytes = (size_t)kattr(d, k, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    a->localSizeBytes = (size_t)kattr(d, k, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    a->maxThreadsPerBlock = kattr(d, k, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    a->numRegs = kattr(d, k, CU_FUNC_ATTRIBUTE_NUM_REGS);
    a->ptxVersion = kattr(d, k, CU_FUNC_ATTRIBUTE_PTX_VERSION);
    a->binaryVersion = kattr(d, k, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
    a->maxDynamicSharedSizeBytes = kattr(d, k, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    return cudaSuccess;
}

/* cudaFuncAttribute values are the driver's CUfunction_attribute values. */
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    SIM_RT_DRIVER(d, false);
    CUkernel k;
    cudaError_t e = sim_rt_kernel_for(func, &k);
    if (e != cudaSuccess)
        return sim_rt_return(e);
    return sim_rt_result(DRV(d, cuKernelSetAttribute)((CUfunction_attribute)attr, value, k, 0));
}

/* `func` is a host stub or a cudaKernel_t; the driver knows the layout.
 * Past the last parameter the driver's INVALID_VALUE is the answer. */
cudaError_t cudaFuncGetParamInfo(const void *func, size_t index, size_t *offset, size_t *size)
{
    SIM_RT_DRIVER(d, false);
    CUkernel k;
    cudaError_t e = sim_rt_kernel_for(func, &k);
    if (e == cudaErrorInvalidDeviceFunction && func)
        k = (CUkernel)func; /* maybe a cudaKernel_t: the driver will tell */
    else if (e != cudaSuccess)
        return sim_rt_return(e);
    CUresult r = DRV(d, cuKernelGetParamInfo)(k, index, offset, size);
    return sim_rt_return(r == CUDA_ERROR_INVALID_HANDLE ? cudaErrorInvalidDeviceFunction : sim_rt_error(r));
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache config)
{
    (void)config; /* cache splits are not modelled */
    CUkernel k;
    return sim_rt_return(sim_rt_kernel_for(func, &k));
}
