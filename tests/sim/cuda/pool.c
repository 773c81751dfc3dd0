/* Memory pools: one default pool per device, which allocates like
 * cuMemAllocAsync. Its attributes are kept and answered as the real
 * driver's are (PyTorch's cudaMallocAsync backend sets the release
 * threshold, reads the usage counters and trims): memory goes back to the
 * host at each free, so the pool holds nothing beyond what is in use
 * (reserved == used) and trimming has nothing to release. */
#include "internal.h"

struct CUmemPoolHandle_st {
    uint32_t magic;
    int follow_events, opportunistic, internal_deps;
    cuuint64_t release_threshold;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmemPoolHandle_st default_pool = {0x504f4f4c, 1, 1, 1, 0};

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

/* The reuse policies, stored as the program set them. */
static int *flag_attr(CUmemoryPool pool, CUmemPool_attribute attr)
{
    switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: return &pool->follow_events;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: return &pool->opportunistic;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: return &pool->internal_deps;
    default: return NULL;
    }
}

/* Only the high-water marks are settable among the counters, and only to
 * zero (which resets them to the current value). */
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    if (pool != &default_pool || !value)
        return CUDA_ERROR_INVALID_VALUE;
    int *flag = flag_attr(pool, attr);
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    if (flag)
        *flag = *(int *)value != 0;
    else if (attr == CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)
        pool->release_threshold = *(cuuint64_t *)value;
    else if ((attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH || attr == CU_MEMPOOL_ATTR_USED_MEM_HIGH) &&
             *(cuuint64_t *)value == 0)
        sim_pool_usage(NULL, NULL, true);
    else
        r = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&lock);
    return r;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    if (pool != &default_pool || !value)
        return CUDA_ERROR_INVALID_VALUE;
    int *flag = flag_attr(pool, attr);
    size_t current, high;
    sim_pool_usage(&current, &high, false);
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&lock);
    switch (attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: *(cuuint64_t *)value = pool->release_threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: *(cuuint64_t *)value = current; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: *(cuuint64_t *)value = high; break;
    default:
        if (flag)
            *(int *)value = *flag;
        else
            r = CUDA_ERROR_INVALID_VALUE;
    }
    pthread_mutex_unlock(&lock);
    return r;
}

/* Nothing is cached, so nothing is released. */
CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t min_bytes_to_keep)
{
    (void)min_bytes_to_keep;
    return pool == &default_pool ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The one device always has read-write access to its own pool. */
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map, size_t count)
{
    if (pool != &default_pool || (count && !map))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++)
        if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE || map[i].location.id != 0 ||
            map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
            return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_SUCCESS;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool pool, CUmemLocation *location)
{
    if (pool != &default_pool || !flags || !location)
        return CUDA_ERROR_INVALID_VALUE;
    bool own = location->type == CU_MEM_LOCATION_TYPE_DEVICE && location->id == 0;
    *flags = own ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE : CU_MEM_ACCESS_FLAGS_PROT_NONE;
    return CUDA_SUCCESS;
}

/* Graphs have no allocation nodes here (memory.c refuses stream-ordered
 * allocation while capturing), so graph memory is always none. */
CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void *value)
{
    CUresult r = sim_device_query(value, dev);
    if (r != CUDA_SUCCESS)
        return r;
    switch (attr) {
    case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
    case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
    case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH: *(cuuint64_t *)value = 0; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void *value)
{
    CUresult r = sim_device_query(value, dev);
    if (r != CUDA_SUCCESS)
        return r;
    bool high = attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH || attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH;
    return high && *(cuuint64_t *)value == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuDeviceGraphMemTrim(CUdevice dev)
{
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
