/* Allocation entry points over the allocation table. */
#include "async.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* in_graph: a stream-ordered allocation on a capturing stream, which the
 * capture allows (it becomes the graph's). */
static CUresult alloc_in(const char *api, void **out, size_t bytes, enum sim_mem_kind kind, bool in_graph)
{
    const char *op = sim_op_name(api);
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    /* cuMemAlloc refuses zero bytes; the runtime handles cudaMalloc(0) itself. */
    if (bytes == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (bytes > SIM_DEVICE_MEM)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (kind == SIM_MEM_DEVICE && !in_graph && sim_capture_forbids())
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    void *p = sim_alloc(bytes, kind);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_memory_fresh(p, bytes);
    *out = p;
    sim_trace(op, "\"ptr\":\"0x%lx\",\"bytes\":%zu", (unsigned long)(uintptr_t)p, bytes);
    return CUDA_SUCCESS;
}

static CUresult alloc_as(const char *api, void **out, size_t bytes, enum sim_mem_kind kind)
{
    return alloc_in(api, out, bytes, kind, false);
}

static CUresult free_as(const char *api, void *p, enum sim_mem_kind kind)
{
    const char *op = sim_op_name(api);
    if (!p)
        return CUDA_SUCCESS;
    if (kind == SIM_MEM_DEVICE && sim_capture_forbids())
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (sim_queued())
        sim_wait_all(); /* a free waits for the device, as cuMemFree does */
    CUresult r = sim_free(p, kind);
    if (r == CUDA_SUCCESS)
        sim_memory_fresh(p, 0);
    if (r == CUDA_SUCCESS)
        sim_trace(op, "\"ptr\":\"0x%lx\"", (unsigned long)(uintptr_t)p);
    return r;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
    return alloc_as("cuMemAlloc", (void **)dptr, bytes, SIM_MEM_DEVICE);
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    return free_as("cuMemFree", (void *)dptr, SIM_MEM_DEVICE);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytes, unsigned int flags)
{
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST)
        return CUDA_ERROR_INVALID_VALUE;
    return alloc_as("cuMemAllocManaged", (void **)dptr, bytes, SIM_MEM_MANAGED);
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytes)
{
    return alloc_as("cuMemAllocHost", pp, bytes, SIM_MEM_HOST);
}

CUresult cuMemHostAlloc(void **pp, size_t bytes, unsigned int flags)
{
    (void)flags; /* portable / mapped / write-combined mean nothing here */
    return alloc_as("cuMemHostAlloc", pp, bytes, SIM_MEM_HOST);
}

CUresult cuMemFreeHost(void *p)
{
    return free_as("cuMemFreeHost", p, SIM_MEM_HOST);
}

/* Stream-ordered allocation is plain allocation (the memory is there
 * before the stream reaches the call); a stream-ordered free is queued on
 * its stream when queues are on, else immediate.
 *
 * On a capturing stream (PyTorch's cudaMallocAsync backend under
 * torch.cuda.graph) an allocation is a graph allocation: made at once, at
 * the address every replay then uses, and owned by the graph; a free on a
 * capturing stream records nothing, and a later free of graph memory
 * outside a capture is accepted and does nothing: the memory stays for the
 * graph's replays (a GPU keeps the graph's address range reserved; here it
 * lives as long as the process). */
static CUresult stream_usable(const char *api, CUstream s)
{
    if (sim_stream_ok(s))
        return CUDA_SUCCESS;
    sim_op_name(api);
    return CUDA_ERROR_INVALID_HANDLE;
}

/* SIMCUDA_POOL_LIMIT: the bytes stream-ordered pools may hold at once (a
 * device near full); unset or not a number: no limit beyond the device's. */
static size_t pool_limit(void)
{
    static _Atomic size_t limit; /* 0: not read yet */
    size_t l = atomic_load(&limit);
    if (l)
        return l;
    const char *v = getenv("SIMCUDA_POOL_LIMIT");
    char *end = NULL;
    unsigned long long n = v && *v ? strtoull(v, &end, 10) : 0;
    l = n && end && !*end ? (size_t)n : SIM_DEVICE_MEM;
    atomic_store(&limit, l);
    return l;
}

/* Over the limit, queued frees are waited for first: a real pool reuses
 * memory freed in stream order, which the stand-in returns only when the
 * free runs. */
static bool pool_would_exceed(size_t bytes)
{
    size_t used = 0;
    sim_pool_usage(&used, NULL, false);
    if (used + bytes > pool_limit() && sim_queued()) {
        sim_wait_all();
        sim_pool_usage(&used, NULL, false);
    }
    return used + bytes > pool_limit();
}

CUresult sim_alloc_async(const char *api, CUdeviceptr *dptr, size_t bytes, CUstream s)
{
    CUresult r = stream_usable(api, s);
    if (r == CUDA_SUCCESS && pool_would_exceed(bytes)) {
        sim_op_name(api);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    bool in_graph = r == CUDA_SUCCESS && sim_capturing(s);
    if (r == CUDA_SUCCESS)
        r = alloc_in(api, (void **)dptr, bytes, SIM_MEM_DEVICE, in_graph);
    if (r == CUDA_SUCCESS)
        sim_mark_pooled((void *)*dptr);
    if (r == CUDA_SUCCESS && in_graph)
        sim_mark_graph((void *)*dptr);
    return r;
}

static CUresult free_async(const char *api, CUdeviceptr dptr, CUstream s)
{
    CUresult r = stream_usable(api, s);
    if (r == CUDA_SUCCESS && (sim_capturing(s) || (dptr && sim_graph_owned((void *)dptr)))) {
        sim_op_name(api);
        return CUDA_SUCCESS;
    }
    if (r != CUDA_SUCCESS || !sim_queued())
        return r != CUDA_SUCCESS ? r : free_as(api, (void *)dptr, SIM_MEM_DEVICE);
    struct sim_work w = {.kind = SIM_WORK_FREE, .op = sim_op_name(api), .stream = s, .u.free.ptr = (void *)dptr};
    if (!dptr)
        return CUDA_SUCCESS;
    return sim_submit(&w, api, false);
}

CUresult cuMemAllocAsync(CUdeviceptr *d, size_t n, CUstream s) { return sim_alloc_async("cuMemAllocAsync", d, n, s); }
CUresult cuMemAllocAsync_ptsz(CUdeviceptr *d, size_t n, CUstream s) { return sim_alloc_async("cuMemAllocAsync_ptsz", d, n, s); }
CUresult cuMemFreeAsync(CUdeviceptr d, CUstream s) { return free_async("cuMemFreeAsync", d, s); }
CUresult cuMemFreeAsync_ptsz(CUdeviceptr d, CUstream s) { return free_async("cuMemFreeAsync_ptsz", d, s); }

/* Rows padded to a multiple of 512 bytes, the texture pitch alignment. */
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height, unsigned int elem)
{
    if (!pitch || !width || !height || (elem != 4 && elem != 8 && elem != 16)) {
        sim_op_name("cuMemAllocPitch");
        return CUDA_ERROR_INVALID_VALUE;
    }
    size_t p = (width + 511) / 512 * 512;
    CUresult r = alloc_as("cuMemAllocPitch", (void **)dptr, p * height, SIM_MEM_DEVICE);
    if (r == CUDA_SUCCESS)
        *pitch = p;
    return r;
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    size_t used = sim_bytes_in_use();
    *total = SIM_DEVICE_MEM;
    *free_bytes = used < SIM_DEVICE_MEM ? SIM_DEVICE_MEM - used : 0;
    return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size, CUdeviceptr dptr)
{
    void *b;
    size_t n;
    if (!sim_lookup((void *)dptr, &b, &n, NULL))
        return CUDA_ERROR_NOT_FOUND;
    if (base) *base = (CUdeviceptr)b;
    if (size) *size = n;
    return CUDA_SUCCESS;
}
