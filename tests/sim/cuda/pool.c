/* Memory pools: one default pool per device, which allocates like
 * cuMemAllocAsync; pool properties are not modelled. */
#include "internal.h"

struct CUmemPoolHandle_st { uint32_t magic; };

static struct CUmemPoolHandle_st default_pool = {0x504f4f4c};

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
    CUresult r = sim_device_query(pool, dev);
    if (r == CUDA_SUCCESS)
        *pool = &default_pool;
    return r;
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev) { return cuDeviceGetDefaultMemPool(pool, dev); }

static CUresult alloc_from(const char *api, CUdeviceptr *d, size_t n, CUmemoryPool pool, CUstream s)
{
    if (pool != &default_pool) {
        sim_op_name(api);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return sim_alloc_async(api, d, n, s);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *d, size_t n, CUmemoryPool p, CUstream s) { return alloc_from("cuMemAllocFromPoolAsync", d, n, p, s); }
CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *d, size_t n, CUmemoryPool p, CUstream s) { return alloc_from("cuMemAllocFromPoolAsync_ptsz", d, n, p, s); }
