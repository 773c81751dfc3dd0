/* Symmetric (real) and Hermitian (complex) Level-2: symv/hemv, sbmv/hbmv,
 * spmv/hpmv, syr/her, spr/hpr, syr2/her2, spr2/hpr2 on the reference CBLAS,
 * arguments checked as cuBLAS documents first (level3.h). The complex
 * symmetric forms (cublasCsymv, Csyr, Csyr2 and Z) have no CBLAS routine:
 * level2_csym.c.
 * Trace: {"op":"cublasSsymv","m":n,"n":n,"a":A,"b":x,"c":y}; the rank
 * updates: "a":x,"b":y (0 for syr/her/spr/hpr),"c":A. */
#include "level3.h"

#include <stdlib.h>

static bool sym_ok(cublasFillMode_t uplo, int64_t n, int64_t incx, int64_t incy)
{
    return simcublas_fill_ok(uplo) && n >= 0 && incx != 0 && incy != 0;
}

#define CBLAS_SYM_HEAD CblasColMajor, simcublas_cblas_uplo(uplo), (int)n

/* symv/hemv (band: sbmv/hbmv with k) y = alpha A x + beta y. */
#define SYMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *A, IT lda, \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                     \
    {                                                                                                         \
        bool ok = sym_ok(uplo, n, incx, incy) && simcublas_ld_ok(lda, n);                                     \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha && beta,                               \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, A,  \
                                               x, y);                                                         \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##P(alpha), A, (int)lda, x, (int)incx,            \
                           SIMCUBLAS_L3_VAL_##P(beta), y, (int)incy);                                         \
        return st;                                                                                            \
    }
#define SBMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                 \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, IT k, const T *alpha, const T *A, \
                       IT lda, const T *x, IT incx, const T *beta, T *y, IT incy)                            \
    {                                                                                                        \
        bool ok = sym_ok(uplo, n, incx, incy) && k >= 0 && lda >= k + 1;                                     \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha && beta,                              \
                                               SIMCUBLAS_L3_INTS(n, k, lda, llabs(incx), llabs(incy)), n, n, \
                                               A, x, y);                                                     \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                      \
            cblas_##cb##op(CBLAS_SYM_HEAD, (int)k, SIMCUBLAS_L3_VAL_##P(alpha), A, (int)lda, x, (int)incx,   \
                           SIMCUBLAS_L3_VAL_##P(beta), y, (int)incy);                                        \
        return st;                                                                                           \
    }
#define SPMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *AP,        \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                      \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, sym_ok(uplo, n, incx, incy), alpha && beta,       \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx), llabs(incy)), n, n, AP, x, y); \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##P(alpha), AP, x, (int)incx,                      \
                           SIMCUBLAS_L3_VAL_##P(beta), y, (int)incy);                                          \
        return st;                                                                                             \
    }
/* syr/her (A full, lda) and spr/hpr (packed): alpha of type S. */
#define SYR_FN(SYM, NAME, IT, T, S, SP, cb, op)                                                               \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const S *alpha, const T *x,        \
                       IT incx, T *A, IT lda)                                                                 \
    {                                                                                                         \
        bool ok = sym_ok(uplo, n, incx, 1) && simcublas_ld_ok(lda, n);                                        \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha != NULL,                               \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx)), n, n, x, NULL, A);     \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##SP(alpha), x, (int)incx, A, (int)lda);          \
        return st;                                                                                            \
    }
#define SPR_FN(SYM, NAME, IT, T, S, SP, cb, op)                                                                \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const S *alpha, const T *x,         \
                       IT incx, T *AP)                                                                         \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, sym_ok(uplo, n, incx, 1), alpha != NULL,          \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx)), n, n, x, NULL, AP);          \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##SP(alpha), x, (int)incx, AP);                    \
        return st;                                                                                             \
    }
/* syr2/her2 and spr2/hpr2: alpha of type T. */
#define SYR2_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *A, IT lda)                                             \
    {                                                                                                          \
        bool ok = sym_ok(uplo, n, incx, incy) && simcublas_ld_ok(lda, n);                                      \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha != NULL,                                \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, x,   \
                                               y, A);                                                          \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##P(alpha), x, (int)incx, y, (int)incy, A,         \
                           (int)lda);                                                                          \
        return st;                                                                                             \
    }
#define SPR2_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *AP)                                                    \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, sym_ok(uplo, n, incx, incy), alpha != NULL,       \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx), llabs(incy)), n, n, x, y, AP); \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            cblas_##cb##op(CBLAS_SYM_HEAD, SIMCUBLAS_L3_VAL_##P(alpha), x, (int)incx, y, (int)incy, AP);       \
        return st;                                                                                             \
    }

/* s: the symmetric spelling (sy/sb/sp), h: the Hermitian one. */
#define SYM2_TYPE(P, T, cb, s, b, p)                                                                   \
    SIMCUBLAS_BOTH_WIDTHS(SYMV_FN, cublas##P##s##mv_v2, "cublas" #P #s "mv", T, P, cb, s##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SBMV_FN, cublas##P##b##mv_v2, "cublas" #P #b "mv", T, P, cb, b##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SPMV_FN, cublas##P##p##mv_v2, "cublas" #P #p "mv", T, P, cb, p##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SYR2_FN, cublas##P##s##r2_v2, "cublas" #P #s "r2", T, P, cb, s##r2)         \
    SIMCUBLAS_BOTH_WIDTHS(SPR2_FN, cublas##P##p##r2_v2, "cublas" #P #p "r2", T, P, cb, p##r2)

SYM2_TYPE(S, float, s, sy, sb, sp)
SYM2_TYPE(D, double, d, sy, sb, sp)
SYM2_TYPE(C, cuComplex, c, he, hb, hp)
SYM2_TYPE(Z, cuDoubleComplex, z, he, hb, hp)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasSsyr_v2, "cublasSsyr", float, float, S, s, syr)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasDsyr_v2, "cublasDsyr", double, double, D, d, syr)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasCher_v2, "cublasCher", cuComplex, float, S, c, her)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasZher_v2, "cublasZher", cuDoubleComplex, double, D, z, her)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasSspr_v2, "cublasSspr", float, float, S, s, spr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasDspr_v2, "cublasDspr", double, double, D, d, spr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasChpr_v2, "cublasChpr", cuComplex, float, S, c, hpr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasZhpr_v2, "cublasZhpr", cuDoubleComplex, double, D, z, hpr)
