/* Symmetric and Hermitian Level-3: symm, hemm, syrk, herk, syr2k, her2k on
 * the reference CBLAS (level3.h). Transposes accepted as cuBLAS documents:
 * syrk/syr2k N or T (real types also C, the same as T), herk/her2k N or C.
 * Trace: {"op":"cublasSsymm","m":..,"n":..,"a":..,"b":..,"c":..}; the rank-k
 * updates trace n x n as m and n, and b = 0 for syrk/herk. */
#include "level3.h"

static bool rank_trans_ok(cublasOperation_t op, bool cplx, bool herm)
{
    if (op == CUBLAS_OP_N)
        return true;
    if (!cplx)
        return op == CUBLAS_OP_T || op == CUBLAS_OP_C;
    return op == (herm ? CUBLAS_OP_C : CUBLAS_OP_T);
}

static bool symm_ok(cublasSideMode_t side, cublasFillMode_t uplo, int64_t m, int64_t n, int64_t lda, int64_t ldb,
                    int64_t ldc)
{
    return simcublas_side_ok(side) && simcublas_fill_ok(uplo) && m >= 0 && n >= 0 &&
           simcublas_ld_ok(lda, side == CUBLAS_SIDE_LEFT ? m : n) && simcublas_ld_ok(ldb, m) && simcublas_ld_ok(ldc, m);
}

/* syrk/herk (ldb < 0: no B) and syr2k/her2k. */
static bool rank_ok(cublasFillMode_t uplo, cublasOperation_t trans, bool cplx, bool herm, int64_t n, int64_t k,
                    int64_t lda, int64_t ldb, int64_t ldc)
{
    int64_t rows = trans == CUBLAS_OP_N ? n : k;
    return simcublas_fill_ok(uplo) && rank_trans_ok(trans, cplx, herm) && n >= 0 && k >= 0 &&
           simcublas_ld_ok(lda, rows) && (ldb < 0 || simcublas_ld_ok(ldb, rows)) && simcublas_ld_ok(ldc, n);
}

/* symm and hemm: op is symm or hemm, S the scalar type's letter. */
#define SYMM_FN(SYM, NAME, IT, T, P, cb, op)                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, IT m, IT n,          \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const T *beta, T *C, IT ldc)      \
    {                                                                                                            \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, symm_ok(side, uplo, m, n, lda, ldb, ldc),           \
                                               alpha && beta, SIMCUBLAS_L3_INTS(m, n, lda, ldb, ldc), m, n, A,   \
                                               B, C);                                                            \
        if (SIMCUBLAS_L3_RUN(st, m, n))                                                                          \
            cblas_##cb##op(CblasColMajor, simcublas_cblas_side(side), simcublas_cblas_uplo(uplo), (int)m, (int)n, \
                           SIMCUBLAS_L3_VAL_##P(alpha), A, (int)lda, B, (int)ldb, SIMCUBLAS_L3_VAL_##P(beta), C, \
                           (int)ldc);                                                                            \
        return st;                                                                                               \
    }
/* syrk and herk: S the type of alpha and beta (real for herk), SP its letter. */
#define SYRK_FN(SYM, NAME, IT, T, S, P, SP, cb, op, herm)                                                      \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,      \
                       const S *alpha, const T *A, IT lda, const S *beta, T *C, IT ldc)                        \
    {                                                                                                          \
        bool cplx = SIMCUBLAS_L3_CPLX_##P;                                                                     \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, rank_ok(uplo, trans, cplx, herm, n, k, lda, -1, ldc), \
                                               alpha && beta, SIMCUBLAS_L3_INTS(n, k, lda, ldc), n, n, A, NULL, C); \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##op(CblasColMajor, simcublas_cblas_uplo(uplo), simcublas_cblas_trans(trans, cplx), (int)n, \
                           (int)k, SIMCUBLAS_L3_VAL_##SP(alpha), A, (int)lda, SIMCUBLAS_L3_VAL_##SP(beta), C,  \
                           (int)ldc);                                                                          \
        return st;                                                                                             \
    }
/* syr2k and her2k: alpha of type T, beta of type S (real for her2k). */
#define SYR2K_FN(SYM, NAME, IT, T, S, P, SP, cb, op, herm)                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,        \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const S *beta, T *C, IT ldc)      \
    {                                                                                                            \
        bool cplx = SIMCUBLAS_L3_CPLX_##P;                                                                       \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, rank_ok(uplo, trans, cplx, herm, n, k, lda, ldb, ldc), \
                                               alpha && beta, SIMCUBLAS_L3_INTS(n, k, lda, ldb, ldc), n, n, A, B, \
                                               C);                                                               \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                          \
            cblas_##cb##op(CblasColMajor, simcublas_cblas_uplo(uplo), simcublas_cblas_trans(trans, cplx), (int)n, \
                           (int)k, SIMCUBLAS_L3_VAL_##P(alpha), A, (int)lda, B, (int)ldb,                        \
                           SIMCUBLAS_L3_VAL_##SP(beta), C, (int)ldc);                                            \
        return st;                                                                                               \
    }

#define SYM_TYPE(P, T, cb)                                                                                    \
    SIMCUBLAS_BOTH_WIDTHS(SYMM_FN, cublas##P##symm_v2, "cublas" #P "symm", T, P, cb, symm)                   \
    SIMCUBLAS_BOTH_WIDTHS(SYRK_FN, cublas##P##syrk_v2, "cublas" #P "syrk", T, T, P, P, cb, syrk, false)      \
    SIMCUBLAS_BOTH_WIDTHS(SYR2K_FN, cublas##P##syr2k_v2, "cublas" #P "syr2k", T, T, P, P, cb, syr2k, false)
#define HERM_TYPE(P, T, R, RP, cb)                                                                            \
    SIMCUBLAS_BOTH_WIDTHS(SYMM_FN, cublas##P##hemm_v2, "cublas" #P "hemm", T, P, cb, hemm)                   \
    SIMCUBLAS_BOTH_WIDTHS(SYRK_FN, cublas##P##herk_v2, "cublas" #P "herk", T, R, P, RP, cb, herk, true)      \
    SIMCUBLAS_BOTH_WIDTHS(SYR2K_FN, cublas##P##her2k_v2, "cublas" #P "her2k", T, R, P, RP, cb, her2k, true)

SYM_TYPE(S, float, s)
SYM_TYPE(D, double, d)
SYM_TYPE(C, cuComplex, c)
SYM_TYPE(Z, cuDoubleComplex, z)
HERM_TYPE(C, cuComplex, float, S, c)
HERM_TYPE(Z, cuDoubleComplex, double, D, z)
