/* Triangular Level-2, in place on x: trmv, trsv (full storage), tbmv, tbsv
 * (band, k off-diagonals), tpmv, tpsv (packed), on the reference CBLAS with
 * arguments checked as cuBLAS documents first (level3.h).
 * Trace: {"op":"cublasStrmv","m":n,"n":n,"a":A,"b":x,"c":0}. */
#include "level3.h"

#include <stdlib.h>

static bool tri_flags_ok(cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t n,
                         int64_t incx)
{
    return simcublas_fill_ok(uplo) && simcublas_op_ok(trans) && simcublas_diag_ok(diag) && n >= 0 && incx != 0;
}

#define CBLAS_TRI_FLAGS(P)                                                                              \
    CblasColMajor, simcublas_cblas_uplo(uplo), simcublas_cblas_trans(trans, SIMCUBLAS_L3_CPLX_##P),     \
        simcublas_cblas_diag(diag)

/* trmv, trsv: op is mv or sv. */
#define TRXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                  \
                       cublasDiagType_t diag, IT n, const T *A, IT lda, T *x, IT incx)                         \
    {                                                                                                          \
        bool ok = tri_flags_ok(uplo, trans, diag, n, incx) && simcublas_ld_ok(lda, n);                         \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, true, SIMCUBLAS_L3_INTS(n, lda, llabs(incx)), \
                                               n, n, A, x, NULL);                                              \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##tr##op(CBLAS_TRI_FLAGS(P), (int)n, A, (int)lda, x, (int)incx);                         \
        return st;                                                                                             \
    }
/* tbmv, tbsv. */
#define TBXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                  \
                       cublasDiagType_t diag, IT n, IT k, const T *A, IT lda, T *x, IT incx)                   \
    {                                                                                                          \
        bool ok = tri_flags_ok(uplo, trans, diag, n, incx) && k >= 0 && lda >= k + 1;                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, true,                                         \
                                               SIMCUBLAS_L3_INTS(n, k, lda, llabs(incx)), n, n, A, x, NULL);   \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##tb##op(CBLAS_TRI_FLAGS(P), (int)n, (int)k, A, (int)lda, x, (int)incx);                 \
        return st;                                                                                             \
    }
/* tpmv, tpsv. */
#define TPXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                 \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                \
                       cublasDiagType_t diag, IT n, const T *AP, T *x, IT incx)                              \
    {                                                                                                        \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, tri_flags_ok(uplo, trans, diag, n, incx), true, \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx)), n, n, AP, x, NULL);        \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                      \
            cblas_##cb##tp##op(CBLAS_TRI_FLAGS(P), (int)n, AP, x, (int)incx);                                \
        return st;                                                                                           \
    }

#define TRI2_TYPE(P, T, cb)                                                                     \
    SIMCUBLAS_BOTH_WIDTHS(TRXV_FN, cublas##P##trmv_v2, "cublas" #P "trmv", T, P, cb, mv)       \
    SIMCUBLAS_BOTH_WIDTHS(TRXV_FN, cublas##P##trsv_v2, "cublas" #P "trsv", T, P, cb, sv)       \
    SIMCUBLAS_BOTH_WIDTHS(TBXV_FN, cublas##P##tbmv_v2, "cublas" #P "tbmv", T, P, cb, mv)       \
    SIMCUBLAS_BOTH_WIDTHS(TBXV_FN, cublas##P##tbsv_v2, "cublas" #P "tbsv", T, P, cb, sv)       \
    SIMCUBLAS_BOTH_WIDTHS(TPXV_FN, cublas##P##tpmv_v2, "cublas" #P "tpmv", T, P, cb, mv)       \
    SIMCUBLAS_BOTH_WIDTHS(TPXV_FN, cublas##P##tpsv_v2, "cublas" #P "tpsv", T, P, cb, sv)

TRI2_TYPE(S, float, s)
TRI2_TYPE(D, double, d)
TRI2_TYPE(C, cuComplex, c)
TRI2_TYPE(Z, cuDoubleComplex, z)
