/* Runtime copies and sets, described by the bytes they read and the views
 * they write (a copy over a whole pending destination drops it; a copy out
 * of one materialises it). Host-side addresses are described too: they lie
 * in no device allocation, so they cannot matter. */
#include "calls/access_hook.h"
#include "calls/describe.h"

#define pitched(p, pitch, w, h) pl_pitched(TF_ADDR(p), pitch, w, h)

static tf_access copy2d_access(const char *api, uint64_t stream, void *dst, size_t dpitch,
                               const void *src, size_t spitch, size_t width, size_t height)
{
    tf_access a = { .api = api, .stream = stream };
    tf_view s = pitched(src, spitch, width, height);
    tf_access_read(&a, tf_view_footprint(&s));
    tf_access_write(&a, pitched(dst, dpitch, width, height));
    return a;
}

#define ACCESS_HOOK(NAME, PARAMS, ARGS, DESCRIBE) \
    TF_ACCESS_HOOK(cudaError_t, TF_MISSING_CUDART, NAME, PARAMS, ARGS, DESCRIBE)
#define copy_access(api, stream, dst, src, n) pl_copy_access(api, stream, TF_ADDR(dst), TF_ADDR(src), n)
#define set_access pl_set_access

#define COPY_PARAMS (void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
#define COPY_ASYNC_PARAMS (void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s)
ACCESS_HOOK(cudaMemcpy, COPY_PARAMS, (dst, src, n, kind), copy_access("cudaMemcpy", 0, dst, src, n))
ACCESS_HOOK(cudaMemcpy_ptds, COPY_PARAMS, (dst, src, n, kind),
            copy_access("cudaMemcpy", TF_STREAM_PER_THREAD, dst, src, n))
ACCESS_HOOK(cudaMemcpyAsync, COPY_ASYNC_PARAMS, (dst, src, n, kind, s),
            copy_access("cudaMemcpyAsync", TF_STREAM(s), dst, src, n))
ACCESS_HOOK(cudaMemcpyAsync_ptsz, COPY_ASYNC_PARAMS, (dst, src, n, kind, s),
            copy_access("cudaMemcpyAsync", TF_PTSZ(s), dst, src, n))

#define PEER_PARAMS (void *dst, int dd, const void *src, int sd, size_t n)
ACCESS_HOOK(cudaMemcpyPeer, PEER_PARAMS, (dst, dd, src, sd, n), copy_access("cudaMemcpyPeer", 0, dst, src, n))
ACCESS_HOOK(cudaMemcpyPeerAsync, (void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s),
            (dst, dd, src, sd, n, s), copy_access("cudaMemcpyPeerAsync", TF_STREAM(s), dst, src, n))

#define COPY2D_PARAMS (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, \
                       enum cudaMemcpyKind kind)
#define COPY2D_ASYNC_PARAMS (void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, \
                             enum cudaMemcpyKind kind, cudaStream_t s)
ACCESS_HOOK(cudaMemcpy2D, COPY2D_PARAMS, (dst, dp, src, sp, w, h, kind),
            copy2d_access("cudaMemcpy2D", 0, dst, dp, src, sp, w, h))
ACCESS_HOOK(cudaMemcpy2D_ptds, COPY2D_PARAMS, (dst, dp, src, sp, w, h, kind),
            copy2d_access("cudaMemcpy2D", TF_STREAM_PER_THREAD, dst, dp, src, sp, w, h))
ACCESS_HOOK(cudaMemcpy2DAsync, COPY2D_ASYNC_PARAMS, (dst, dp, src, sp, w, h, kind, s),
            copy2d_access("cudaMemcpy2DAsync", TF_STREAM(s), dst, dp, src, sp, w, h))
ACCESS_HOOK(cudaMemcpy2DAsync_ptsz, COPY2D_ASYNC_PARAMS, (dst, dp, src, sp, w, h, kind, s),
            copy2d_access("cudaMemcpy2DAsync", TF_PTSZ(s), dst, dp, src, sp, w, h))

#define SET_VIEW(p, n) tf_view_dense(TF_ADDR(p), n)
ACCESS_HOOK(cudaMemset, (void *p, int v, size_t n), (p, v, n), set_access("cudaMemset", 0, SET_VIEW(p, n)))
ACCESS_HOOK(cudaMemset_ptds, (void *p, int v, size_t n), (p, v, n),
            set_access("cudaMemset", TF_STREAM_PER_THREAD, SET_VIEW(p, n)))
ACCESS_HOOK(cudaMemsetAsync, (void *p, int v, size_t n, cudaStream_t s), (p, v, n, s),
            set_access("cudaMemsetAsync", TF_STREAM(s), SET_VIEW(p, n)))
ACCESS_HOOK(cudaMemsetAsync_ptsz, (void *p, int v, size_t n, cudaStream_t s), (p, v, n, s),
            set_access("cudaMemsetAsync", TF_PTSZ(s), SET_VIEW(p, n)))

#define SET2D_PARAMS (void *p, size_t pitch, int v, size_t w, size_t h)
#define SET2D_ASYNC_PARAMS (void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s)
ACCESS_HOOK(cudaMemset2D, SET2D_PARAMS, (p, pitch, v, w, h),
            set_access("cudaMemset2D", 0, pitched(p, pitch, w, h)))
ACCESS_HOOK(cudaMemset2D_ptds, SET2D_PARAMS, (p, pitch, v, w, h),
            set_access("cudaMemset2D", TF_STREAM_PER_THREAD, pitched(p, pitch, w, h)))
ACCESS_HOOK(cudaMemset2DAsync, SET2D_ASYNC_PARAMS, (p, pitch, v, w, h, s),
            set_access("cudaMemset2DAsync", TF_STREAM(s), pitched(p, pitch, w, h)))
ACCESS_HOOK(cudaMemset2DAsync_ptsz, SET2D_ASYNC_PARAMS, (p, pitch, v, w, h, s),
            set_access("cudaMemset2DAsync", TF_PTSZ(s), pitched(p, pitch, w, h)))

/* 3D and batched copies: opaque. */
#define OPAQUE(NAME, PARAMS, ARGS, STREAM) TF_OPAQUE_HOOK(cudaError_t, TF_MISSING_CUDART, NAME, PARAMS, ARGS, STREAM)
#define P3D (const struct cudaMemcpy3DParms *p)
#define P3D_ASYNC (const struct cudaMemcpy3DParms *p, cudaStream_t s)
#define PEER3D (const struct cudaMemcpy3DPeerParms *p)
#define PEER3D_ASYNC (const struct cudaMemcpy3DPeerParms *p, cudaStream_t s)
OPAQUE(cudaMemcpy3D, P3D, (p), 0)
OPAQUE(cudaMemcpy3D_ptds, P3D, (p), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpy3DAsync, P3D_ASYNC, (p, s), TF_STREAM(s))
OPAQUE(cudaMemcpy3DAsync_ptsz, P3D_ASYNC, (p, s), TF_PTSZ(s))
OPAQUE(cudaMemcpy3DPeer, PEER3D, (p), 0)
OPAQUE(cudaMemcpy3DPeer_ptds, PEER3D, (p), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpy3DPeerAsync, PEER3D_ASYNC, (p, s), TF_STREAM(s))
OPAQUE(cudaMemcpy3DPeerAsync_ptsz, PEER3D_ASYNC, (p, s), TF_PTSZ(s))

#define SET3D (struct cudaPitchedPtr p, int v, struct cudaExtent e)
#define SET3D_ASYNC (struct cudaPitchedPtr p, int v, struct cudaExtent e, cudaStream_t s)
OPAQUE(cudaMemset3D, SET3D, (p, v, e), 0)
OPAQUE(cudaMemset3D_ptds, SET3D, (p, v, e), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemset3DAsync, SET3D_ASYNC, (p, v, e, s), TF_STREAM(s))
OPAQUE(cudaMemset3DAsync_ptsz, SET3D_ASYNC, (p, v, e, s), TF_PTSZ(s))

#define BATCH (void *const *d, const void *const *src, const size_t *n, size_t count, \
               struct cudaMemcpyAttributes *attrs, size_t *idx, size_t nattrs, cudaStream_t s)
#define BATCH_ARGS (d, src, n, count, attrs, idx, nattrs, s)
#define BATCH3D (size_t n, struct cudaMemcpy3DBatchOp *ops, unsigned long long flags, cudaStream_t s)
OPAQUE(cudaMemcpyBatchAsync, BATCH, BATCH_ARGS, TF_STREAM(s))
OPAQUE(cudaMemcpyBatchAsync_ptsz, BATCH, BATCH_ARGS, TF_PTSZ(s))
OPAQUE(cudaMemcpy3DBatchAsync, BATCH3D, (n, ops, flags, s), TF_STREAM(s))
OPAQUE(cudaMemcpy3DBatchAsync_ptsz, BATCH3D, (n, ops, flags, s), TF_PTSZ(s))

/* Symbols and arrays live outside the allocations we track, and their
 * linear side may be a transpose's source or destination: opaque. */
#define TOSYM (const void *sym, const void *src, size_t n, size_t off, enum cudaMemcpyKind k)
#define TOSYM_ASYNC (const void *sym, const void *src, size_t n, size_t off, enum cudaMemcpyKind k, cudaStream_t s)
#define FROMSYM (void *dst, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k)
#define FROMSYM_ASYNC (void *dst, const void *sym, size_t n, size_t off, enum cudaMemcpyKind k, cudaStream_t s)
OPAQUE(cudaMemcpyToSymbol, TOSYM, (sym, src, n, off, k), 0)
OPAQUE(cudaMemcpyToSymbol_ptds, TOSYM, (sym, src, n, off, k), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpyToSymbolAsync, TOSYM_ASYNC, (sym, src, n, off, k, s), TF_STREAM(s))
OPAQUE(cudaMemcpyToSymbolAsync_ptsz, TOSYM_ASYNC, (sym, src, n, off, k, s), TF_PTSZ(s))
OPAQUE(cudaMemcpyFromSymbol, FROMSYM, (dst, sym, n, off, k), 0)
OPAQUE(cudaMemcpyFromSymbol_ptds, FROMSYM, (dst, sym, n, off, k), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpyFromSymbolAsync, FROMSYM_ASYNC, (dst, sym, n, off, k, s), TF_STREAM(s))
OPAQUE(cudaMemcpyFromSymbolAsync_ptsz, FROMSYM_ASYNC, (dst, sym, n, off, k, s), TF_PTSZ(s))

#define TOARR (cudaArray_t a, size_t wo, size_t ho, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k)
#define TOARR_ASYNC (cudaArray_t a, size_t wo, size_t ho, const void *src, size_t sp, size_t w, size_t h, \
                     enum cudaMemcpyKind k, cudaStream_t s)
#define FROMARR (void *dst, size_t dp, cudaArray_const_t a, size_t wo, size_t ho, size_t w, size_t h, enum cudaMemcpyKind k)
#define FROMARR_ASYNC (void *dst, size_t dp, cudaArray_const_t a, size_t wo, size_t ho, size_t w, size_t h, \
                       enum cudaMemcpyKind k, cudaStream_t s)
OPAQUE(cudaMemcpy2DToArray, TOARR, (a, wo, ho, src, sp, w, h, k), 0)
OPAQUE(cudaMemcpy2DToArray_ptds, TOARR, (a, wo, ho, src, sp, w, h, k), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpy2DToArrayAsync, TOARR_ASYNC, (a, wo, ho, src, sp, w, h, k, s), TF_STREAM(s))
OPAQUE(cudaMemcpy2DToArrayAsync_ptsz, TOARR_ASYNC, (a, wo, ho, src, sp, w, h, k, s), TF_PTSZ(s))
OPAQUE(cudaMemcpy2DFromArray, FROMARR, (dst, dp, a, wo, ho, w, h, k), 0)
OPAQUE(cudaMemcpy2DFromArray_ptds, FROMARR, (dst, dp, a, wo, ho, w, h, k), TF_STREAM_PER_THREAD)
OPAQUE(cudaMemcpy2DFromArrayAsync, FROMARR_ASYNC, (dst, dp, a, wo, ho, w, h, k, s), TF_STREAM(s))
OPAQUE(cudaMemcpy2DFromArrayAsync_ptsz, FROMARR_ASYNC, (dst, dp, a, wo, ho, w, h, k, s), TF_PTSZ(s))
