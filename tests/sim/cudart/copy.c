/* cudaMemcpy[2D][Async] through the driver copy that matches the direction.
 * The per-thread-stream forms (_ptds/_ptsz) take the per-thread table. */
#include "internal.h"

#include <stdint.h>

#define DP(p) ((CUdeviceptr)(uintptr_t)(p))

static bool kind_ok(enum cudaMemcpyKind k) { return k >= cudaMemcpyHostToHost && k <= cudaMemcpyDefault; }

static CUresult copy_sync(const struct sim_drv *d, void *dst, const void *src, size_t n, enum cudaMemcpyKind k)
{
    switch (k) {
    case cudaMemcpyHostToDevice: return DRV(d, cuMemcpyHtoD)(DP(dst), src, n);
    case cudaMemcpyDeviceToHost: return DRV(d, cuMemcpyDtoH)(dst, DP(src), n);
    case cudaMemcpyDeviceToDevice: return DRV(d, cuMemcpyDtoD)(DP(dst), DP(src), n);
    default: return DRV(d, cuMemcpy)(DP(dst), DP(src), n);
    }
}

static CUresult copy_async(const struct sim_drv *d, void *dst, const void *src, size_t n, enum cudaMemcpyKind k,
                           cudaStream_t s)
{
    switch (k) {
    case cudaMemcpyHostToDevice: return DRV(d, cuMemcpyHtoDAsync)(DP(dst), src, n, s);
    case cudaMemcpyDeviceToHost: return DRV(d, cuMemcpyDtoHAsync)(dst, DP(src), n, s);
    case cudaMemcpyDeviceToDevice: return DRV(d, cuMemcpyDtoDAsync)(DP(dst), DP(src), n, s);
    default: return DRV(d, cuMemcpyAsync)(DP(dst), DP(src), n, s);
    }
}

/* The driver API copy_sync / copy_async call for a direction. */
static const char *copy_api(enum cudaMemcpyKind k, bool async)
{
    switch (k) {
    case cudaMemcpyHostToDevice: return async ? "cuMemcpyHtoDAsync" : "cuMemcpyHtoD";
    case cudaMemcpyDeviceToHost: return async ? "cuMemcpyDtoHAsync" : "cuMemcpyDtoH";
    case cudaMemcpyDeviceToDevice: return async ? "cuMemcpyDtoDAsync" : "cuMemcpyDtoD";
    default: return async ? "cuMemcpyAsync" : "cuMemcpy";
    }
}

static cudaError_t memcpy_as(const char *op, bool pt, void *dst, const void *src, size_t n,
                             enum cudaMemcpyKind k, bool async, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (!kind_ok(k))
        return sim_rt_return(cudaErrorInvalidMemcpyDirection);
    if (n == 0)
        return cudaSuccess;
    CUresult r = SIM_RT_AS(op, copy_api(k, async),
                           async ? copy_async(d, dst, src, n, k, s) : copy_sync(d, dst, src, n, k));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaMemcpy) cudaMemcpy_ptds;
SIM_API __typeof__(cudaMemcpyAsync) cudaMemcpyAsync_ptsz;

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k)
{
    return memcpy_as("cudaMemcpy", false, dst, src, n, k, false, NULL);
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t n, enum cudaMemcpyKind k)
{
    return memcpy_as("cudaMemcpy_ptds", true, dst, src, n, k, false, NULL);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s)
{
    return memcpy_as("cudaMemcpyAsync", false, dst, src, n, k, true, s);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t n, enum cudaMemcpyKind k, cudaStream_t s)
{
    return memcpy_as("cudaMemcpyAsync_ptsz", true, dst, src, n, k, true, s);
}

/* Host sides are HOST, device sides DEVICE; cudaMemcpyDefault lets the
 * driver infer both (UNIFIED). */
static void sides(enum cudaMemcpyKind k, CUmemorytype *dst, CUmemorytype *src)
{
    bool dd = k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice;
    bool sd = k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice;
    *dst = k == cudaMemcpyDefault ? CU_MEMORYTYPE_UNIFIED : dd ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    *src = k == cudaMemcpyDefault ? CU_MEMORYTYPE_UNIFIED : sd ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
}

static cudaError_t memcpy2d_as(const char *op, bool pt, void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind k, bool async, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (!kind_ok(k))
        return sim_rt_return(cudaErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch)
        return sim_rt_return(cudaErrorInvalidPitchValue);
    if (width == 0 || height == 0)
        return cudaSuccess;
    CUDA_MEMCPY2D c = {0};
    sides(k, &c.dstMemoryType, &c.srcMemoryType);
    c.dstHost = dst;
    c.dstDevice = DP(dst);
    c.dstPitch = dpitch;
    c.srcHost = src;
    c.srcDevice = DP(src);
    c.srcPitch = spitch;
    c.WidthInBytes = width;
    c.Height = height;
    CUresult r = SIM_RT_AS(op, async ? "cuMemcpy2DAsync" : "cuMemcpy2D",
                           async ? DRV(d, cuMemcpy2DAsync)(&c, s) : DRV(d, cuMemcpy2D)(&c));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaMemcpy2D) cudaMemcpy2D_ptds;
SIM_API __typeof__(cudaMemcpy2DAsync) cudaMemcpy2DAsync_ptsz;

cudaError_t cudaMemcpy2D(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k)
{
    return memcpy2d_as("cudaMemcpy2D", false, dst, dp, src, sp, w, h, k, false, NULL);
}

cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k)
{
    return memcpy2d_as("cudaMemcpy2D_ptds", true, dst, dp, src, sp, w, h, k, false, NULL);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                              enum cudaMemcpyKind k, cudaStream_t s)
{
    return memcpy2d_as("cudaMemcpy2DAsync", false, dst, dp, src, sp, w, h, k, true, s);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dp, const void *src, size_t sp, size_t w, size_t h,
                                   enum cudaMemcpyKind k, cudaStream_t s)
{
    return memcpy2d_as("cudaMemcpy2DAsync_ptsz", true, dst, dp, src, sp, w, h, k, true, s);
}

/* One device: peers are device 0 and the copy is device to device. */
static cudaError_t peer_as(const char *op, void *dst, int ddev, const void *src, int sdev, size_t n,
                           bool async, cudaStream_t s)
{
    SIM_RT_DRIVER(d, false);
    if (ddev != 0 || sdev != 0)
        return sim_rt_return(cudaErrorInvalidDevice);
    if (n == 0)
        return cudaSuccess;
    CUcontext ctx;
    DRV(d, cuDevicePrimaryCtxRetain)(&ctx, 0);
    CUresult r = SIM_RT_AS(op, async ? "cuMemcpyPeerAsync" : "cuMemcpyPeer",
                           async ? DRV(d, cuMemcpyPeerAsync)(DP(dst), ctx, DP(src), ctx, n, s)
                                 : DRV(d, cuMemcpyPeer)(DP(dst), ctx, DP(src), ctx, n));
    return sim_rt_result(r);
}

/* The real runtime has no per-thread-stream forms of these two. */
cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n)
{
    return peer_as("cudaMemcpyPeer", dst, dd, src, sd, n, false, NULL);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dd, const void *src, int sd, size_t n, cudaStream_t s)
{
    return peer_as("cudaMemcpyPeerAsync", dst, dd, src, sd, n, true, s);
}
