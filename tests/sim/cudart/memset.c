/* cudaMemset[2D][Async]: byte fills through cuMemsetD8 / cuMemsetD2D8. */
#include "internal.h"

#include <stdint.h>

static cudaError_t set_as(const char *op, bool pt, void *p, int value, size_t n, bool async, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (n == 0)
        return cudaSuccess;
    CUdeviceptr dp = (CUdeviceptr)(uintptr_t)p;
    CUresult r = SIM_RT_AS(op, async ? "cuMemsetD8Async" : "cuMemsetD8",
                           async ? DRV(d, cuMemsetD8Async)(dp, (unsigned char)value, n, s)
                                 : DRV(d, cuMemsetD8)(dp, (unsigned char)value, n));
    return sim_rt_result(r);
}

static cudaError_t set2d_as(const char *op, bool pt, void *p, size_t pitch, int value, size_t w, size_t h,
                            bool async, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    if (w == 0 || h == 0)
        return cudaSuccess;
    if (h > 1 && w > pitch)
        return sim_rt_return(cudaErrorInvalidPitchValue);
    CUdeviceptr dp = (CUdeviceptr)(uintptr_t)p;
    CUresult r = SIM_RT_AS(op, async ? "cuMemsetD2D8Async" : "cuMemsetD2D8",
                           async ? DRV(d, cuMemsetD2D8Async)(dp, pitch, (unsigned char)value, w, h, s)
                                 : DRV(d, cuMemsetD2D8)(dp, pitch, (unsigned char)value, w, h));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaMemset) cudaMemset_ptds;
SIM_API __typeof__(cudaMemsetAsync) cudaMemsetAsync_ptsz;
SIM_API __typeof__(cudaMemset2D) cudaMemset2D_ptds;
SIM_API __typeof__(cudaMemset2DAsync) cudaMemset2DAsync_ptsz;

cudaError_t cudaMemset(void *p, int v, size_t n) { return set_as("cudaMemset", false, p, v, n, false, NULL); }
cudaError_t cudaMemset_ptds(void *p, int v, size_t n) { return set_as("cudaMemset_ptds", true, p, v, n, false, NULL); }
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) { return set_as("cudaMemsetAsync", false, p, v, n, true, s); }
cudaError_t cudaMemsetAsync_ptsz(void *p, int v, size_t n, cudaStream_t s) { return set_as("cudaMemsetAsync_ptsz", true, p, v, n, true, s); }

cudaError_t cudaMemset2D(void *p, size_t pitch, int v, size_t w, size_t h)
{
    return set2d_as("cudaMemset2D", false, p, pitch, v, w, h, false, NULL);
}

cudaError_t cudaMemset2D_ptds(void *p, size_t pitch, int v, size_t w, size_t h)
{
    return set2d_as("cudaMemset2D_ptds", true, p, pitch, v, w, h, false, NULL);
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s)
{
    return set2d_as("cudaMemset2DAsync", false, p, pitch, v, w, h, true, s);
}

cudaError_t cudaMemset2DAsync_ptsz(void *p, size_t pitch, int v, size_t w, size_t h, cudaStream_t s)
{
    return set2d_as("cudaMemset2DAsync_ptsz", true, p, pitch, v, w, h, true, s);
}
