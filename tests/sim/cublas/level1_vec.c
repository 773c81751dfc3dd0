/* Level-1 updates of vectors: axpy, scal (and the real scale of a complex
 * vector, Csscal/Zdscal), copy, swap; reference CBLAS semantics (level1.h).
 * Trace: {"op":"cublasSaxpy","n":..,"incx":..,"incy":..,"x":..,"y":..}. */
#include "level1.h"

#define AXPY_FN(SYM, NAME, IT, P, T, cb)                                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *alpha, const T *x, IT incx, T *y, IT incy) \
    {                                                                                                   \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, alpha != NULL, n, incx, incy, x, y);       \
        if (SIMCUBLAS_L1_RUN(st, n))                                                                    \
            cblas_##cb##axpy((int)n, SIMCUBLAS_L1_VAL_##P(alpha), x, (int)incx, y, (int)incy);          \
        return st;                                                                                      \
    }
#define SCAL_FN(SYM, NAME, IT, P, T, S, cb)                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const S *alpha, T *x, IT incx)             \
    {                                                                                           \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, alpha != NULL, n, incx, 1, x, NULL); \
        if (SIMCUBLAS_L1_RUN(st, n))                                                            \
            cblas_##cb##scal((int)n, SIMCUBLAS_L1_VAL_##P(alpha), x, (int)incx);                \
        return st;                                                                              \
    }
#define COPY_FN(SYM, NAME, IT, T, cb, op, CONST)                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, CONST T *x, IT incx, T *y, IT incy)            \
    {                                                                                              \
        cublasStatus_t st = simcublas_l1_begin(handle, NAME, true, n, incx, incy, x, y);           \
        if (SIMCUBLAS_L1_RUN(st, n))                                                               \
            cblas_##cb##op((int)n, x, (int)incx, y, (int)incy);                                    \
        return st;                                                                                 \
    }

#define VEC_TYPE(P, T, cb)                                                                       \
    SIMCUBLAS_BOTH_WIDTHS(AXPY_FN, cublas##P##axpy_v2, "cublas" #P "axpy", P, T, cb)             \
    SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublas##P##scal_v2, "cublas" #P "scal", P, T, T, cb)          \
    SIMCUBLAS_BOTH_WIDTHS(COPY_FN, cublas##P##copy_v2, "cublas" #P "copy", T, cb, copy, const)   \
    SIMCUBLAS_BOTH_WIDTHS(COPY_FN, cublas##P##swap_v2, "cublas" #P "swap", T, cb, swap, )

VEC_TYPE(S, float, s)
VEC_TYPE(D, double, d)
VEC_TYPE(C, cuComplex, c)
VEC_TYPE(Z, cuDoubleComplex, z)
SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublasCsscal_v2, "cublasCsscal", S, cuComplex, float, cs)
SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublasZdscal_v2, "cublasZdscal", D, cuDoubleComplex, double, zd)
