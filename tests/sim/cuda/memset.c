/* cuMemsetD{8,16,32}[Async] and cuMemsetD2D{8,16,32}[Async]: counts are in
 * elements, and the destination must be a live allocation (work.c). */
#include "work.h"

#define LEGACY ((CUstream)0)

static CUresult set(const char *api, enum sim_work_kind kind, CUdeviceptr dst, size_t pitch, unsigned value,
                    unsigned elem, size_t width, size_t height, CUstream s)
{
    struct sim_work w = {.kind = kind, .op = sim_op_name(api), .stream = s,
                         .u.set = {.dst = (char *)(uintptr_t)dst, .pitch = pitch, .width = width, .height = height,
                                   .value = value, .elem = elem}};
    return sim_submit(&w, api, false);
}

#define SET1(api, d, v, e, n, s) set(api, SIM_WORK_SET, d, (n) * (e), v, e, n, 1, s)
#define SET2(api, d, p, v, e, w, h, s) set(api, SIM_WORK_SET2D, d, p, v, e, w, h, s)

CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { return SET1("cuMemsetD8", d, v, 1, n, LEGACY); }
CUresult cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t n) { return SET1("cuMemsetD8_ptds", d, v, 1, n, LEGACY); }
CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) { return SET1("cuMemsetD16", d, v, 2, n, LEGACY); }
CUresult cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t n) { return SET1("cuMemsetD16_ptds", d, v, 2, n, LEGACY); }
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned int v, size_t n) { return SET1("cuMemsetD32", d, v, 4, n, LEGACY); }
CUresult cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned int v, size_t n) { return SET1("cuMemsetD32_ptds", d, v, 4, n, LEGACY); }
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return SET1("cuMemsetD8Async", d, v, 1, n, s); }
CUresult cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t n, CUstream s) { return SET1("cuMemsetD8Async_ptsz", d, v, 1, n, s); }
CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return SET1("cuMemsetD16Async", d, v, 2, n, s); }
CUresult cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t n, CUstream s) { return SET1("cuMemsetD16Async_ptsz", d, v, 2, n, s); }
CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream s) { return SET1("cuMemsetD32Async", d, v, 4, n, s); }
CUresult cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned int v, size_t n, CUstream s) { return SET1("cuMemsetD32Async_ptsz", d, v, 4, n, s); }

CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return SET2("cuMemsetD2D8", d, p, v, 1, w, h, LEGACY); }
CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) { return SET2("cuMemsetD2D8_ptds", d, p, v, 1, w, h, LEGACY); }
CUresult cuMemsetD2D16_v2(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) { return SET2("cuMemsetD2D16", d, p, v, 2, w, h, LEGACY); }
CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) { return SET2("cuMemsetD2D16_ptds", d, p, v, 2, w, h, LEGACY); }
CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) { return SET2("cuMemsetD2D32", d, p, v, 4, w, h, LEGACY); }
CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) { return SET2("cuMemsetD2D32_ptds", d, p, v, 4, w, h, LEGACY); }
CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D8Async", d, p, v, 1, w, h, s); }
CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D8Async_ptsz", d, p, v, 1, w, h, s); }
CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D16Async", d, p, v, 2, w, h, s); }
CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D16Async_ptsz", d, p, v, 2, w, h, s); }
CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D32Async", d, p, v, 4, w, h, s); }
CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream s) { return SET2("cuMemsetD2D32Async_ptsz", d, p, v, 4, w, h, s); }
