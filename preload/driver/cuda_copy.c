/* Driver copies and sets, as accesses. */
#include "calls/access_hook.h"
#include "calls/describe.h"

#define CU_HOOK(NAME, PARAMS, ARGS, DESCRIBE) TF_ACCESS_HOOK(CUresult, TF_MISSING_CUDA, NAME, PARAMS, ARGS, DESCRIBE)
#define copy(api, stream, dst, src, n) pl_copy_access(api, stream, (uint64_t)(dst), TF_ADDR(src), n)

/* One side of a 2D copy: its first byte, or 0 for an array (not device
 * memory we track). */
static uint64_t side_addr(CUmemorytype type, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch)
{
    uint64_t base = type == CU_MEMORYTYPE_HOST ? TF_ADDR(host)
                  : type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED ? (uint64_t)dev : 0;
    return base ? base + y * pitch + x : 0;
}

static tf_access copy2d(const char *api, uint64_t stream, const CUDA_MEMCPY2D *c)
{
    tf_access a = { .api = api, .stream = stream };
    if (!c)
        return a;
    uint64_t src = side_addr(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch);
    uint64_t dst = side_addr(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch);
    size_t spitch = c->srcPitch ? c->srcPitch : c->WidthInBytes, dpitch = c->dstPitch ? c->dstPitch : c->WidthInBytes;
    tf_view s = pl_pitched(src, spitch, c->WidthInBytes, c->Height);
    if (src)
        tf_access_read(&a, tf_view_footprint(&s));
    if (dst)
        tf_access_write(&a, pl_pitched(dst, dpitch, c->WidthInBytes, c->Height));
    return a;
}

#define D2D (CUdeviceptr dst, CUdeviceptr src, size_t n)
#define D2D_ASYNC (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
CU_HOOK(cuMemcpy, D2D, (dst, src, n), copy("cuMemcpy", 0, dst, src, n))
CU_HOOK(cuMemcpy_ptds, D2D, (dst, src, n), copy("cuMemcpy", TF_STREAM_PER_THREAD, dst, src, n))
CU_HOOK(cuMemcpyAsync, D2D_ASYNC, (dst, src, n, s), copy("cuMemcpyAsync", TF_STREAM(s), dst, src, n))
CU_HOOK(cuMemcpyAsync_ptsz, D2D_ASYNC, (dst, src, n, s), copy("cuMemcpyAsync", TF_PTSZ(s), dst, src, n))
CU_HOOK(cuMemcpyDtoD_v2, D2D, (dst, src, n), copy("cuMemcpyDtoD", 0, dst, src, n))
CU_HOOK(cuMemcpyDtoD_v2_ptds, D2D, (dst, src, n), copy("cuMemcpyDtoD", TF_STREAM_PER_THREAD, dst, src, n))
CU_HOOK(cuMemcpyDtoDAsync_v2, D2D_ASYNC, (dst, src, n, s), copy("cuMemcpyDtoDAsync", TF_STREAM(s), dst, src, n))
CU_HOOK(cuMemcpyDtoDAsync_v2_ptsz, D2D_ASYNC, (dst, src, n, s), copy("cuMemcpyDtoDAsync", TF_PTSZ(s), dst, src, n))

#define H2D (CUdeviceptr dst, const void *src, size_t n)
#define H2D_ASYNC (CUdeviceptr dst, const void *src, size_t n, CUstream s)
CU_HOOK(cuMemcpyHtoD_v2, H2D, (dst, src, n), copy("cuMemcpyHtoD", 0, dst, src, n))
CU_HOOK(cuMemcpyHtoD_v2_ptds, H2D, (dst, src, n), copy("cuMemcpyHtoD", TF_STREAM_PER_THREAD, dst, src, n))
CU_HOOK(cuMemcpyHtoDAsync_v2, H2D_ASYNC, (dst, src, n, s), copy("cuMemcpyHtoDAsync", TF_STREAM(s), dst, src, n))
CU_HOOK(cuMemcpyHtoDAsync_v2_ptsz, H2D_ASYNC, (dst, src, n, s), copy("cuMemcpyHtoDAsync", TF_PTSZ(s), dst, src, n))

#define D2H (void *dst, CUdeviceptr src, size_t n)
#define D2H_ASYNC (void *dst, CUdeviceptr src, size_t n, CUstream s)
#define copy_to_host(api, stream, dst, src, n) pl_copy_access(api, stream, TF_ADDR(dst), (uint64_t)(src), n)
CU_HOOK(cuMemcpyDtoH_v2, D2H, (dst, src, n), copy_to_host("cuMemcpyDtoH", 0, dst, src, n))
CU_HOOK(cuMemcpyDtoH_v2_ptds, D2H, (dst, src, n), copy_to_host("cuMemcpyDtoH", TF_STREAM_PER_THREAD, dst, src, n))
CU_HOOK(cuMemcpyDtoHAsync_v2, D2H_ASYNC, (dst, src, n, s), copy_to_host("cuMemcpyDtoHAsync", TF_STREAM(s), dst, src, n))
CU_HOOK(cuMemcpyDtoHAsync_v2_ptsz, D2H_ASYNC, (dst, src, n, s),
        copy_to_host("cuMemcpyDtoHAsync", TF_PTSZ(s), dst, src, n))

CU_HOOK(cuMemcpy2D_v2, (const CUDA_MEMCPY2D *c), (c), copy2d("cuMemcpy2D", 0, c))
CU_HOOK(cuMemcpy2D_v2_ptds, (const CUDA_MEMCPY2D *c), (c), copy2d("cuMemcpy2D", TF_STREAM_PER_THREAD, c))
CU_HOOK(cuMemcpy2DUnaligned_v2, (const CUDA_MEMCPY2D *c), (c), copy2d("cuMemcpy2DUnaligned", 0, c))
CU_HOOK(cuMemcpy2DUnaligned_v2_ptds, (const CUDA_MEMCPY2D *c), (c),
        copy2d("cuMemcpy2DUnaligned", TF_STREAM_PER_THREAD, c))
CU_HOOK(cuMemcpy2DAsync_v2, (const CUDA_MEMCPY2D *c, CUstream s), (c, s), copy2d("cuMemcpy2DAsync", TF_STREAM(s), c))
CU_HOOK(cuMemcpy2DAsync_v2_ptsz, (const CUDA_MEMCPY2D *c, CUstream s), (c, s), copy2d("cuMemcpy2DAsync", TF_PTSZ(s), c))

#define PEER (CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n)
#define PEER_ASYNC (CUdeviceptr dst, CUcontext dc, CUdeviceptr src, CUcontext sc, size_t n, CUstream s)
CU_HOOK(cuMemcpyPeer, PEER, (dst, dc, src, sc, n), copy("cuMemcpyPeer", 0, dst, src, n))
CU_HOOK(cuMemcpyPeer_ptds, PEER, (dst, dc, src, sc, n), copy("cuMemcpyPeer", TF_STREAM_PER_THREAD, dst, src, n))
CU_HOOK(cuMemcpyPeerAsync, PEER_ASYNC, (dst, dc, src, sc, n, s), copy("cuMemcpyPeerAsync", TF_STREAM(s), dst, src, n))
CU_HOOK(cuMemcpyPeerAsync_ptsz, PEER_ASYNC, (dst, dc, src, sc, n, s),
        copy("cuMemcpyPeerAsync", TF_PTSZ(s), dst, src, n))

/* 3D and batched copies: opaque. */
#define OPAQUE(NAME, PARAMS, ARGS, STREAM) TF_OPAQUE_HOOK(CUresult, TF_MISSING_CUDA, NAME, PARAMS, ARGS, STREAM)
OPAQUE(cuMemcpy3D_v2, (const CUDA_MEMCPY3D *p), (p), 0)
OPAQUE(cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *p), (p), TF_STREAM_PER_THREAD)
OPAQUE(cuMemcpy3DAsync_v2, (const CUDA_MEMCPY3D *p, CUstream s), (p, s), TF_STREAM(s))
OPAQUE(cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *p, CUstream s), (p, s), TF_PTSZ(s))
OPAQUE(cuMemcpy3DPeer, (const CUDA_MEMCPY3D_PEER *p), (p), 0)
OPAQUE(cuMemcpy3DPeer_ptds, (const CUDA_MEMCPY3D_PEER *p), (p), TF_STREAM_PER_THREAD)
OPAQUE(cuMemcpy3DPeerAsync, (const CUDA_MEMCPY3D_PEER *p, CUstream s), (p, s), TF_STREAM(s))
OPAQUE(cuMemcpy3DPeerAsync_ptsz, (const CUDA_MEMCPY3D_PEER *p, CUstream s), (p, s), TF_PTSZ(s))
/* Arrays live outside the allocations we track. */
OPAQUE(cuMemcpyAtoD_v2, (CUdeviceptr d, CUarray a, size_t off, size_t n), (d, a, off, n), 0)
OPAQUE(cuMemcpyAtoD_v2_ptds, (CUdeviceptr d, CUarray a, size_t off, size_t n), (d, a, off, n), TF_STREAM_PER_THREAD)
OPAQUE(cuMemcpyDtoA_v2, (CUarray a, size_t off, CUdeviceptr d, size_t n), (a, off, d, n), 0)
OPAQUE(cuMemcpyDtoA_v2_ptds, (CUarray a, size_t off, CUdeviceptr d, size_t n), (a, off, d, n), TF_STREAM_PER_THREAD)

#define BATCH (CUdeviceptr *d, CUdeviceptr *src, size_t *n, size_t count, CUmemcpyAttributes *attrs, size_t *idx, \
               size_t nattrs, CUstream s)
#define BATCH_ARGS (d, src, n, count, attrs, idx, nattrs, s)
#define BATCH3D (size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream s)
OPAQUE(cuMemcpyBatchAsync_v2, BATCH, BATCH_ARGS, TF_STREAM(s))
OPAQUE(cuMemcpyBatchAsync_v2_ptsz, BATCH, BATCH_ARGS, TF_PTSZ(s))
OPAQUE(cuMemcpy3DBatchAsync_v2, BATCH3D, (n, ops, flags, s), TF_STREAM(s))
OPAQUE(cuMemcpy3DBatchAsync_v2_ptsz, BATCH3D, (n, ops, flags, s), TF_PTSZ(s))

/* memsetD{8,16,32} and memsetD2D{8,16,32}: each width in its four forms
 * (synchronous on the legacy or the per-thread stream, asynchronous on a
 * stream argument read either way). */
#define SET_FAMILY(SYNC, ASYNC, API, PARAMS, ARGS, PARAMS_ASYNC, ARGS_ASYNC, VIEW)                \
    CU_HOOK(SYNC, PARAMS, ARGS, pl_set_access(API, 0, VIEW))                                      \
    CU_HOOK(SYNC##_ptds, PARAMS, ARGS, pl_set_access(API, TF_STREAM_PER_THREAD, VIEW))            \
    CU_HOOK(ASYNC, PARAMS_ASYNC, ARGS_ASYNC, pl_set_access(API "Async", TF_STREAM(s), VIEW))      \
    CU_HOOK(ASYNC##_ptsz, PARAMS_ASYNC, ARGS_ASYNC, pl_set_access(API "Async", TF_PTSZ(s), VIEW))

#define SETS(W, T)                                                                                \
    SET_FAMILY(cuMemsetD##W##_v2, cuMemsetD##W##Async, "cuMemsetD" #W, (CUdeviceptr p, T v, size_t n), \
               (p, v, n), (CUdeviceptr p, T v, size_t n, CUstream s), (p, v, n, s),              \
               tf_view_dense(p, n * sizeof(T)))
#define SETS_2D(W, T)                                                                             \
    SET_FAMILY(cuMemsetD2D##W##_v2, cuMemsetD2D##W##Async, "cuMemsetD2D" #W,                      \
               (CUdeviceptr p, size_t pitch, T v, size_t w, size_t h), (p, pitch, v, w, h),       \
               (CUdeviceptr p, size_t pitch, T v, size_t w, size_t h, CUstream s), (p, pitch, v, w, h, s), \
               pl_pitched(p, pitch, w * sizeof(T), h))

SETS(8, unsigned char)
SETS(16, unsigned short)
SETS(32, unsigned int)
SETS_2D(8, unsigned char)
SETS_2D(16, unsigned short)
SETS_2D(32, unsigned int)
