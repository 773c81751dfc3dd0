/* Copies. Every pointer that claims to be device memory must lie inside a
 * live allocation, so a bad address fails the way it would on a GPU rather
 * than silently reading host memory (checked in work.c). */
#include "work.h"

#include <string.h>

#define D(x) ((char *)(uintptr_t)(x))
#define LEGACY ((CUstream)0)

static bool on_device(const void *p)
{
    enum sim_mem_kind kind;
    return sim_lookup(p, NULL, NULL, &kind) && kind != SIM_MEM_HOST;
}

/* When the host waits for a copy (queued stand-in): a synchronous API
 * copying to or from host memory, and any copy into pageable memory. */
static bool host_waits(const char *api, const void *dst, const void *src)
{
    if (!strstr(api, "Async"))
        return !on_device(dst) || !on_device(src);
    return !sim_lookup(dst, NULL, NULL, NULL);
}

/* dev_dst / dev_src: which sides must be device (table-known) memory. */
static CUresult copy(const char *api, void *dst, const void *src, size_t n, bool dev_dst, bool dev_src, CUstream s)
{
    struct sim_work w = {.kind = SIM_WORK_COPY, .op = sim_op_name(api), .stream = s,
                         .u.copy = {.dst = dst, .src = src, .n = n, .dev_dst = dev_dst, .dev_src = dev_src}};
    return sim_submit(&w, api, host_waits(api, dst, src));
}

CUresult cuMemcpy(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy("cuMemcpy", D(d), D(s), n, false, false, LEGACY); }
CUresult cuMemcpy_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy("cuMemcpy_ptds", D(d), D(s), n, false, false, LEGACY); }
CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyAsync", D(d), D(s), n, false, false, st); }
CUresult cuMemcpyAsync_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyAsync_ptsz", D(d), D(s), n, false, false, st); }

CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { return copy("cuMemcpyHtoD", D(d), s, n, true, false, LEGACY); }
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void *s, size_t n) { return copy("cuMemcpyHtoD_ptds", D(d), s, n, true, false, LEGACY); }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { return copy("cuMemcpyDtoH", d, D(s), n, false, true, LEGACY); }
CUresult cuMemcpyDtoH_v2_ptds(void *d, CUdeviceptr s, size_t n) { return copy("cuMemcpyDtoH_ptds", d, D(s), n, false, true, LEGACY); }
CUresult cuMemcpyDtoD_v2(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy("cuMemcpyDtoD", D(d), D(s), n, true, true, LEGACY); }
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return copy("cuMemcpyDtoD_ptds", D(d), D(s), n, true, true, LEGACY); }

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, CUstream st) { return copy("cuMemcpyHtoDAsync", D(d), s, n, true, false, st); }
CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr d, const void *s, size_t n, CUstream st) { return copy("cuMemcpyHtoDAsync_ptsz", D(d), s, n, true, false, st); }
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyDtoHAsync", d, D(s), n, false, true, st); }
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyDtoHAsync_ptsz", d, D(s), n, false, true, st); }
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyDtoDAsync", D(d), D(s), n, true, true, st); }
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) { return copy("cuMemcpyDtoDAsync_ptsz", D(d), D(s), n, true, true, st); }

/* One device, one context: a peer copy is a device-to-device copy. */
static CUresult peer(const char *api, CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st)
{
    if (dc != sim_primary_ctx() || sc != sim_primary_ctx()) {
        sim_op_name(api);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return copy(api, D(d), D(s), n, true, true, st);
}

CUresult cuMemcpyPeer(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) { return peer("cuMemcpyPeer", d, dc, s, sc, n, LEGACY); }
CUresult cuMemcpyPeer_ptds(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) { return peer("cuMemcpyPeer_ptds", d, dc, s, sc, n, LEGACY); }
CUresult cuMemcpyPeerAsync(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) { return peer("cuMemcpyPeerAsync", d, dc, s, sc, n, st); }
CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, CUstream st) { return peer("cuMemcpyPeerAsync_ptsz", d, dc, s, sc, n, st); }

/* 2D copies: rows of WidthInBytes, each side with its own pitch. Arrays are
 * not supported by the stand-in. */
static char *side(CUmemorytype t, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch, bool *is_dev)
{
    *is_dev = t == CU_MEMORYTYPE_DEVICE;
    return (t == CU_MEMORYTYPE_HOST ? (char *)host : D(dev)) + y * pitch + x;
}

static CUresult copy2d(const char *api, const CUDA_MEMCPY2D *c, CUstream s)
{
    struct sim_work w = {.kind = SIM_WORK_COPY2D, .op = sim_op_name(api), .stream = s};
    if (!c || c->srcMemoryType == CU_MEMORYTYPE_ARRAY || c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return CUDA_ERROR_INVALID_VALUE;
    w.u.copy2d.dst = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch, &w.u.copy2d.dev_dst);
    w.u.copy2d.src = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch, &w.u.copy2d.dev_src);
    w.u.copy2d.dpitch = c->dstPitch;
    w.u.copy2d.spitch = c->srcPitch;
    w.u.copy2d.width = c->WidthInBytes;
    w.u.copy2d.height = c->Height;
    return sim_submit(&w, api, host_waits(api, w.u.copy2d.dst, w.u.copy2d.src));
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *c) { return copy2d("cuMemcpy2D", c, LEGACY); }
CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *c) { return copy2d("cuMemcpy2D_ptds", c, LEGACY); }
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *c) { return copy2d("cuMemcpy2DUnaligned", c, LEGACY); }
CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *c) { return copy2d("cuMemcpy2DUnaligned_ptds", c, LEGACY); }
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *c, CUstream s) { return copy2d("cuMemcpy2DAsync", c, s); }
CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *c, CUstream s) { return copy2d("cuMemcpy2DAsync_ptsz", c, s); }
