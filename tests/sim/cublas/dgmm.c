/* cublas<t>dgmm: C = A diag(x) (CUBLAS_SIDE_RIGHT) or diag(x) A (LEFT), a
 * cuBLAS extension with no BLAS routine, computed here element by element
 * (one product each, so exact in any order). x is walked as BLAS walks a
 * vector (a negative incx from its last element); C may be A (ldc == lda).
 * Trace: {"op":"cublasSdgmm","m":..,"n":..,"a":..,"b":x,"c":..}. */
#include "level3.h"

#define MUL_REAL(a, b) ((a) * (b))
#define MUL_CPLX(a, b) ((__typeof__(a)){(a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x})

#define DGMM_FN(SYM, NAME, IT, T, MUL)                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t mode, IT m, IT n, const T *A, IT lda,           \
                       const T *x, IT incx, T *C, IT ldc)                                                      \
    {                                                                                                          \
        bool ok = simcublas_side_ok(mode) && m >= 0 && n >= 0 && simcublas_ld_ok(lda, m) &&                    \
                  simcublas_ld_ok(ldc, m) && ((const void *)A != (const void *)C || lda == ldc);               \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, true, NULL, 0, m, n, A, x, C);                \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                       \
            return st;                                                                                         \
        IT len = mode == CUBLAS_SIDE_LEFT ? m : n, first = incx < 0 ? (len - 1) * -incx : 0;                   \
        for (IT j = 0; j < n; j++)                                                                             \
            for (IT i = 0; i < m; i++)                                                                         \
                C[i + j * ldc] = MUL(A[i + j * lda], x[first + (mode == CUBLAS_SIDE_LEFT ? i : j) * incx]);    \
        return st;                                                                                             \
    }

SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasSdgmm, "cublasSdgmm", float, MUL_REAL)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasDdgmm, "cublasDdgmm", double, MUL_REAL)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasCdgmm, "cublasCdgmm", cuComplex, MUL_CPLX)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasZdgmm, "cublasZdgmm", cuDoubleComplex, MUL_CPLX)
