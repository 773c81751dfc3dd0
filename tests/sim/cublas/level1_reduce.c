/* Level-1 reductions: dot (dotu, dotc), nrm2, asum, iamax, iamin; reference
 * CBLAS semantics (level1.h). The result goes where the pointer says, host
 * or device alike. Empty problems (n <= 0, or incx <= 0 for nrm2, asum and
 * the index searches) give 0, as BLAS defines. amax/amin indexes count
 * from 1; iamin has no CBLAS routine and is computed here in the same
 * terms as iamax (|re| + |im| for complex, first of equals).
 * Trace: {"op":"cublasSdot","n":..,"incx":..,"incy":..,"x":..,"y":..}. */
#include "level1.h"

#include <math.h>
#include <string.h>

#define DOT_REAL_FN(SYM, NAME, IT, T, cb)                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, const T *y, IT incy, T *result)   \
    {                                                                                                       \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, result != NULL, n, incx, incy, x, y);          \
        if (st == CUBLAS_STATUS_SUCCESS && !sim_noop())                                                     \
            *result = n > 0 ? cblas_##cb##dot((int)n, x, (int)incx, y, (int)incy) : 0;                     \
        return st;                                                                                          \
    }
#define DOT_CPLX_FN(SYM, NAME, IT, T, cb, kind)                                                               \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, const T *y, IT incy, T *result)   \
    {                                                                                                       \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, result != NULL, n, incx, incy, x, y);          \
        if (st == CUBLAS_STATUS_SUCCESS && !sim_noop()) {                                                   \
            memset(result, 0, sizeof *result);                                                              \
            if (n > 0)                                                                                      \
                cblas_##cb##dot##kind##_sub((int)n, x, (int)incx, y, (int)incy, result);                    \
        }                                                                                                   \
        return st;                                                                                          \
    }
/* nrm2 and asum: a real result of a vector of type T. */
#define NORM_FN(SYM, NAME, IT, T, R, fn)                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, R *result)              \
    {                                                                                             \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, result != NULL, n, incx, 1, x, NULL); \
        if (st == CUBLAS_STATUS_SUCCESS && !sim_noop())                                           \
            *result = n > 0 && incx > 0 ? fn((int)n, x, (int)incx) : 0;                          \
        return st;                                                                                \
    }
#define IAMAX_FN(SYM, NAME, IT, T, cb)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, IT *result)                    \
    {                                                                                                    \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, result != NULL, n, incx, 1, x, NULL);       \
        if (st == CUBLAS_STATUS_SUCCESS && !sim_noop())                                                  \
            *result = n > 0 && incx > 0 ? (IT)cblas_i##cb##amax((int)n, x, (int)incx) + 1 : 0;          \
        return st;                                                                                       \
    }
#define IAMIN_FN(SYM, NAME, IT, T, mag)                                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, IT *result)                    \
    {                                                                                                    \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, result != NULL, n, incx, 1, x, NULL);       \
        if (st != CUBLAS_STATUS_SUCCESS || sim_noop())                                                   \
            return st;                                                                                   \
        IT best = 0;                                                                                     \
        for (IT i = 0; n > 0 && incx > 0 && i < n; i++)                                                  \
            if (i == 0 || mag(x[i * incx]) < mag(x[best * incx]))                                        \
                best = i;                                                                                \
        *result = n > 0 && incx > 0 ? best + 1 : 0;                                                      \
        return st;                                                                                       \
    }
#define MAG_REAL(v) fabs((double)(v))
#define MAG_CPLX(v) (fabs((double)(v).x) + fabs((double)(v).y))

/* RP: the cuBLAS prefix of nrm2/asum (S, D, Sc, Dz), rcb: CBLAS's. */
#define REDUCE_TYPE(T, R, cb, RP, rcb, mag)                                                            \
    SIMCUBLAS_BOTH_WIDTHS(NORM_FN, cublas##RP##nrm2_v2, "cublas" #RP "nrm2", T, R, cblas_##rcb##nrm2) \
    SIMCUBLAS_BOTH_WIDTHS(NORM_FN, cublas##RP##asum_v2, "cublas" #RP "asum", T, R, cblas_##rcb##asum) \
    SIMCUBLAS_BOTH_WIDTHS(IAMAX_FN, cublasI##cb##amax_v2, "cublasI" #cb "amax", T, cb)                  \
    SIMCUBLAS_BOTH_WIDTHS(IAMIN_FN, cublasI##cb##amin_v2, "cublasI" #cb "amin", T, mag)

SIMCUBLAS_BOTH_WIDTHS(DOT_REAL_FN, cublasSdot_v2, "cublasSdot", float, s)
SIMCUBLAS_BOTH_WIDTHS(DOT_REAL_FN, cublasDdot_v2, "cublasDdot", double, d)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasCdotu_v2, "cublasCdotu", cuComplex, c, u)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasCdotc_v2, "cublasCdotc", cuComplex, c, c)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasZdotu_v2, "cublasZdotu", cuDoubleComplex, z, u)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasZdotc_v2, "cublasZdotc", cuDoubleComplex, z, c)
REDUCE_TYPE(float, float, s, S, s, MAG_REAL)
REDUCE_TYPE(double, double, d, D, d, MAG_REAL)
REDUCE_TYPE(cuComplex, float, c, Sc, sc, MAG_CPLX)
REDUCE_TYPE(cuDoubleComplex, double, z, Dz, dz, MAG_CPLX)
