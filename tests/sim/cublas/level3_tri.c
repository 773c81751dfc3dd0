/* Triangular Level-3: trsm (in place on B) and trmm, which cuBLAS makes out
 * of place, C = alpha op(A) B (or B op(A)): B is copied into C, then CBLAS's
 * in-place trmm runs on C. B == C is the in-place form and needs
 * ldb == ldc. Reference CBLAS semantics (level3.h); each runs as its
 * stream's work (queue.h).
 * Trace: {"op":"cublasStrsm","m":..,"n":..,"a":..,"b":..,"c":..} (c = 0 for trsm). */
#include "level3.h"
#include "queue.h"

#include <string.h>

static bool tri_ok(cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag,
                   int64_t m, int64_t n, int64_t lda, int64_t ldb)
{
    return simcublas_side_ok(side) && simcublas_fill_ok(uplo) && simcublas_op_ok(trans) && simcublas_diag_ok(diag) &&
           m >= 0 && n >= 0 && simcublas_ld_ok(lda, side == CUBLAS_SIDE_LEFT ? m : n) && simcublas_ld_ok(ldb, m);
}

/* The CBLAS flags of a triangular call, as record initialisers. */
#define TRI_FLAGS(side, uplo, trans, diag, P)                                                               \
    .side = simcublas_cblas_side(side), .uplo = simcublas_cblas_uplo(uplo),                                 \
    .trans = simcublas_cblas_trans(trans, SIMCUBLAS_L3_CPLX_##P), .diag = simcublas_cblas_diag(diag)

/* The m x n matrix B into C, column by column. */
static void copy_matrix(void *c, int64_t ldc, const void *b, int64_t ldb, int64_t m, int64_t n, size_t elem)
{
    if (c == b)
        return;
    for (int64_t j = 0; j < n; j++)
        memcpy((char *)c + (size_t)(j * ldc) * elem, (const char *)b + (size_t)(j * ldb) * elem, (size_t)m * elem);
}

#define TRSM_FN(SYM, NAME, IT, T, P, cb)                                                                         \
    static void SYM##_run(void *p)                                                                               \
    {                                                                                                            \
        simcublas_l3_args *a = p;                                                                                \
        cblas_##cb##trsm(CblasColMajor, a->side, a->uplo, a->trans, a->diag, a->m, a->n,                         \
                         SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, a)), a->A, a->lda, a->C, a->ldb);            \
    }                                                                                                            \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                      \
                       cublasOperation_t trans, cublasDiagType_t diag, IT m, IT n, const T *alpha, const T *A,   \
                       IT lda, T *B, IT ldb)                                                                     \
    {                                                                                                            \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, tri_ok(side, uplo, trans, diag, m, n, lda, ldb),    \
                                               alpha != NULL, SIMCUBLAS_L3_INTS(m, n, lda, ldb), m, n, A, B,     \
                                               NULL);                                                            \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                         \
            return st;                                                                                           \
        simcublas_l3_args a = {TRI_FLAGS(side, uplo, trans, diag, P), .m = (int)m, .n = (int)n, .lda = (int)lda, \
                               .ldb = (int)ldb, .A = A, .C = B};                                                 \
        simcublas_l3_scalars(handle, &a, alpha, sizeof(T), NULL, 0);                                             \
        int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;                                                           \
        simcuda_span sp[2] = {simcublas_mat_span(A, ka, ka, lda, sizeof(T), false),                              \
                              simcublas_mat_span(B, m, n, ldb, sizeof(T), true)};                                \
        return simcublas_queue(handle, NAME, SYM##_run, &a, sizeof a, sp, 2);                                    \
    }
#define TRMM_FN(SYM, NAME, IT, T, P, cb)                                                                         \
    static void SYM##_run(void *p)                                                                               \
    {                                                                                                            \
        simcublas_l3_args *a = p;                                                                                \
        copy_matrix(a->C, a->ldc, a->B, a->ldb, a->m, a->n, sizeof(T));                                          \
        cblas_##cb##trmm(CblasColMajor, a->side, a->uplo, a->trans, a->diag, a->m, a->n,                         \
                         SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, a)), a->A, a->lda, a->C, a->ldc);            \
    }                                                                                                            \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                      \
                       cublasOperation_t trans, cublasDiagType_t diag, IT m, IT n, const T *alpha, const T *A,   \
                       IT lda, const T *B, IT ldb, T *C, IT ldc)                                                 \
    {                                                                                                            \
        bool ok = tri_ok(side, uplo, trans, diag, m, n, lda, ldb) && simcublas_ld_ok(ldc, m) &&                  \
                  ((const void *)B != (const void *)C || ldb == ldc);                                            \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha != NULL,                                  \
                                               SIMCUBLAS_L3_INTS(m, n, lda, ldb, ldc), m, n, A, B, C);           \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                         \
            return st;                                                                                           \
        simcublas_l3_args a = {TRI_FLAGS(side, uplo, trans, diag, P), .m = (int)m, .n = (int)n, .lda = (int)lda, \
                               .ldb = (int)ldb, .ldc = (int)ldc, .A = A, .B = B, .C = C};                        \
        simcublas_l3_scalars(handle, &a, alpha, sizeof(T), NULL, 0);                                             \
        int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;                                                           \
        simcuda_span sp[3] = {simcublas_mat_span(A, ka, ka, lda, sizeof(T), false),                              \
                              simcublas_mat_span(B, m, n, ldb, sizeof(T), false),                                \
                              simcublas_mat_span(C, m, n, ldc, sizeof(T), true)};                                \
        return simcublas_queue(handle, NAME, SYM##_run, &a, sizeof a, sp, 3);                                    \
    }

#define TRI_TYPE(P, T, cb)                                                                    \
    SIMCUBLAS_BOTH_WIDTHS(TRSM_FN, cublas##P##trsm_v2, "cublas" #P "trsm", T, P, cb)         \
    SIMCUBLAS_BOTH_WIDTHS(TRMM_FN, cublas##P##trmm_v2, "cublas" #P "trmm", T, P, cb)

TRI_TYPE(S, float, s)
TRI_TYPE(D, double, d)
TRI_TYPE(C, cuComplex, c)
TRI_TYPE(Z, cuDoubleComplex, z)
