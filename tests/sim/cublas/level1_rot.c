/* Level-1 plane rotations: rot (real, and complex with a real or complex
 * sine), rotg, rotm, rotmg; reference CBLAS semantics (level1.h). The
 * complex rotation with a complex sine has no CBLAS routine and is
 * computed here: x' = c x + s y, y' = c y - conj(s) x.
 * Trace: rot and rotm as the other Level-1 calls; rotg and rotmg work on
 * scalars: {"op":"cublasSrotg","a":..,"b":..}. */
#include "level1.h"

#include <complex.h>

#include "access.h"

/* A rotation with real cosine and sine R of vectors of T. */
#define ROT_FN(SYM, NAME, IT, T, R, cb)                                                                    \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, T *x, IT incx, T *y, IT incy, const R *c, const R *s)  \
    {                                                                                                      \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, c && s, n, incx, incy, x, y);                 \
        if (SIMCUBLAS_L1_RUN(st, n))                                                                       \
            cblas_##cb##rot((int)n, x, (int)incx, y, (int)incy, *c, *s);                                   \
        return st;                                                                                         \
    }
#define CROT_FN(SYM, NAME, IT, T, R, CT)                                                                      \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, T *x, IT incx, T *y, IT incy, const R *c, const T *s)    \
    {                                                                                                         \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, c && s, n, incx, incy, x, y);                    \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                                         \
            return st;                                                                                        \
        CT sv = s->x + s->y * I;                                                                              \
        IT ix = incx < 0 ? (n - 1) * -incx : 0, iy = incy < 0 ? (n - 1) * -incy : 0;                          \
        for (IT i = 0; i < n; i++, ix += incx, iy += incy) {                                                  \
            CT xv = x[ix].x + x[ix].y * I, yv = y[iy].x + y[iy].y * I;                                        \
            CT xn = *c * xv + sv * yv, yn = *c * yv - conj(sv) * xv;                                          \
            x[ix] = (T){creal(xn), cimag(xn)};                                                                \
            y[iy] = (T){creal(yn), cimag(yn)};                                                                \
        }                                                                                                     \
        return st;                                                                                            \
    }

#define ROTG_FN(SYM, NAME, T, R, cb)                                                 \
    cublasStatus_t SYM(cublasHandle_t handle, T *a, T *b, R *c, T *s)                \
    {                                                                                \
        const char *name = simcublas_l1_name(NAME);                                  \
        if (!simcublas_handle_ok(handle))                                            \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
        if (!a || !b || !c || !s)                                                    \
            return CUBLAS_STATUS_INVALID_VALUE;                                      \
        simcublas_access(handle, (const void *[]){a, b, c, s}, 4);                   \
        sim_trace(name, "\"a\":%llu,\"b\":%llu", SIMCUBLAS_PTR(a), SIMCUBLAS_PTR(b)); \
        if (!sim_noop())                                                             \
            cblas_##cb##rotg(a, b, c, s);                                            \
        return CUBLAS_STATUS_SUCCESS;                                                \
    }
#define ROTM_FN(SYM, NAME, IT, T, cb)                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, T *x, IT incx, T *y, IT incy, const T *param)        \
    {                                                                                                     \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, param != NULL, n, incx, incy, x, y);         \
        if (SIMCUBLAS_L1_RUN(st, n))                                                                      \
            cblas_##cb##rotm((int)n, x, (int)incx, y, (int)incy, param);                                  \
        return st;                                                                                        \
    }
#define ROTMG_FN(SYM, NAME, T, cb)                                                                 \
    cublasStatus_t SYM(cublasHandle_t handle, T *d1, T *d2, T *x1, const T *y1, T *param)          \
    {                                                                                              \
        const char *name = simcublas_l1_name(NAME);                                                \
        if (!simcublas_handle_ok(handle))                                                          \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                                  \
        if (!d1 || !d2 || !x1 || !y1 || !param)                                                    \
            return CUBLAS_STATUS_INVALID_VALUE;                                                    \
        simcublas_access(handle, (const void *[]){d1, d2, x1, y1, param}, 5);                      \
        sim_trace(name, "\"a\":%llu,\"b\":%llu", SIMCUBLAS_PTR(x1), SIMCUBLAS_PTR(y1));             \
        if (!sim_noop())                                                                           \
            cblas_##cb##rotmg(d1, d2, x1, *y1, param);                                             \
        return CUBLAS_STATUS_SUCCESS;                                                              \
    }

SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasSrot_v2, "cublasSrot", float, float, s)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasDrot_v2, "cublasDrot", double, double, d)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasCsrot_v2, "cublasCsrot", cuComplex, float, cs)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasZdrot_v2, "cublasZdrot", cuDoubleComplex, double, zd)
SIMCUBLAS_BOTH_WIDTHS(CROT_FN, cublasCrot_v2, "cublasCrot", cuComplex, float, float complex)
SIMCUBLAS_BOTH_WIDTHS(CROT_FN, cublasZrot_v2, "cublasZrot", cuDoubleComplex, double, double complex)
ROTG_FN(cublasSrotg_v2, "cublasSrotg", float, float, s)
ROTG_FN(cublasDrotg_v2, "cublasDrotg", double, double, d)
ROTG_FN(cublasCrotg_v2, "cublasCrotg", cuComplex, float, c)
ROTG_FN(cublasZrotg_v2, "cublasZrotg", cuDoubleComplex, double, z)
SIMCUBLAS_BOTH_WIDTHS(ROTM_FN, cublasSrotm_v2, "cublasSrotm", float, s)
SIMCUBLAS_BOTH_WIDTHS(ROTM_FN, cublasDrotm_v2, "cublasDrotm", double, d)
ROTMG_FN(cublasSrotmg_v2, "cublasSrotmg", float, s)
ROTMG_FN(cublasDrotmg_v2, "cublasDrotmg", double, d)
