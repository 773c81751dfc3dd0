/* Triangular Level-2, in place on x: trmv, trsv (full storage), tbmv, tbsv
 * (band, k off-diagonals), tpmv, tpsv (packed), on the reference CBLAS with
 * arguments checked as cuBLAS documents first (level3.h); each runs as its
 * stream's work (queue.h).
 * Trace: {"op":"cublasStrmv","m":n,"n":n,"a":A,"b":x,"c":0}. */
#include "level3.h"

#include <stdlib.h>

#include "queue.h"

static bool tri_flags_ok(cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int64_t n,
                         int64_t incx)
{
    return simcublas_fill_ok(uplo) && simcublas_op_ok(trans) && simcublas_diag_ok(diag) && n >= 0 && incx != 0;
}

#define CBLAS_TRI_FLAGS CblasColMajor, r->uplo, r->trans, r->diag

/* The record of a call (x in y, written) and its queueing with A's span. */
#define TRI_RECORD(P, ...)                                                                                      \
    simcublas_l3_args r = {.uplo = simcublas_cblas_uplo(uplo),                                                  \
                           .trans = simcublas_cblas_trans(trans, SIMCUBLAS_L3_CPLX_##P),                        \
                           .diag = simcublas_cblas_diag(diag), .n = (int)n, .incx = (int)incx, .y = x, __VA_ARGS__}
#define TRI_QUEUE(SYM, NAME, T, a_span)                                                                         \
    simcuda_span sp[2] = {a_span, simcublas_vec_span(x, n, incx, sizeof(T), true)};                            \
    return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 2);

/* trmv, trsv: op is mv or sv. */
#define TRXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##tr##op(CBLAS_TRI_FLAGS, r->n, r->A, r->lda, r->y, r->incx);                                \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                  \
                       cublasDiagType_t diag, IT n, const T *A, IT lda, T *x, IT incx)                         \
    {                                                                                                          \
        bool ok = tri_flags_ok(uplo, trans, diag, n, incx) && simcublas_ld_ok(lda, n);                         \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, true, SIMCUBLAS_L3_INTS(n, lda, llabs(incx)), \
                                               n, n, A, x, NULL);                                              \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        TRI_RECORD(P, .lda = (int)lda, .A = A);                                                                \
        TRI_QUEUE(SYM, NAME, T, simcublas_mat_span(A, n, n, lda, sizeof(T), false))                            \
    }
/* tbmv, tbsv. */
#define TBXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##tb##op(CBLAS_TRI_FLAGS, r->n, r->k, r->A, r->lda, r->y, r->incx);                          \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                  \
                       cublasDiagType_t diag, IT n, IT k, const T *A, IT lda, T *x, IT incx)                   \
    {                                                                                                          \
        bool ok = tri_flags_ok(uplo, trans, diag, n, incx) && k >= 0 && lda >= k + 1;                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, true,                                         \
                                               SIMCUBLAS_L3_INTS(n, k, lda, llabs(incx)), n, n, A, x, NULL);   \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        TRI_RECORD(P, .k = (int)k, .lda = (int)lda, .A = A);                                                   \
        TRI_QUEUE(SYM, NAME, T, simcublas_mat_span(A, lda, n, lda, sizeof(T), false))                          \
    }
/* tpmv, tpsv. */
#define TPXV_FN(SYM, NAME, IT, T, P, cb, op)                                                                 \
    static void SYM##_run(void *p)                                                                           \
    {                                                                                                        \
        simcublas_l3_args *r = p;                                                                            \
        cblas_##cb##tp##op(CBLAS_TRI_FLAGS, r->n, r->A, r->y, r->incx);                                      \
    }                                                                                                        \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,                \
                       cublasDiagType_t diag, IT n, const T *AP, T *x, IT incx)                              \
    {                                                                                                        \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, tri_flags_ok(uplo, trans, diag, n, incx), true, \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx)), n, n, AP, x, NULL);        \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                     \
            return st;                                                                                       \
        TRI_RECORD(P, .A = AP);                                                                              \
        TRI_QUEUE(SYM, NAME, T, simcublas_vec_span(AP, n * (n + 1) / 2, 1, sizeof(T), false))                \
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
