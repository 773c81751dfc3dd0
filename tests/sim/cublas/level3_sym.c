/* Symmetric and Hermitian Level-3: symm, hemm, syrk, herk, syr2k, her2k on
 * the reference CBLAS (level3.h). Transposes accepted as cuBLAS documents:
 * syrk/syr2k N or T (real types also C, the same as T), herk/her2k N or C.
 * Trace: {"op":"cublasSsymm","m":..,"n":..,"a":..,"b":..,"c":..}; the rank-k
 * updates trace n x n as m and n, and b = 0 for syrk/herk. Each runs as its
 * stream's work (queue.h). */
#include "level3.h"
#include "queue.h"

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

/* Queues SYM's runner on the record a: matrices A and B (rows x cols each)
 * read, C (n_c x n_c, or m x n for symm) written. */
#define L3_QUEUE(SYM, NAME, T, a, ra, ca, rb, cb_, rc, cc)                                                      \
    simcuda_span sp_[3] = {simcublas_mat_span((a).A, ra, ca, (a).lda, sizeof(T), false),                         \
                           simcublas_mat_span((a).B, rb, cb_, (a).ldb, sizeof(T), false),                        \
                           simcublas_mat_span((a).C, rc, cc, (a).ldc, sizeof(T), true)};                         \
    return simcublas_queue(handle, NAME, SYM##_run, &(a), sizeof(a), sp_, 3);

/* symm and hemm: op is symm or hemm, S the scalar type's letter. */
#define SYMM_FN(SYM, NAME, IT, T, P, cb, op)                                                                     \
    static void SYM##_run(void *p)                                                                               \
    {                                                                                                            \
        simcublas_l3_args *a = p;                                                                                \
        cblas_##cb##op(CblasColMajor, a->side, a->uplo, a->m, a->n, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, a)), \
                       a->A, a->lda, a->B, a->ldb, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_BETA(T, a)), a->C, a->ldc);  \
    }                                                                                                            \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, IT m, IT n,          \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const T *beta, T *C, IT ldc)      \
    {                                                                                                            \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, symm_ok(side, uplo, m, n, lda, ldb, ldc),           \
                                               alpha && beta, SIMCUBLAS_L3_INTS(m, n, lda, ldb, ldc), m, n, A,   \
                                               B, C);                                                            \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                         \
            return st;                                                                                           \
        simcublas_l3_args a = {.side = simcublas_cblas_side(side), .uplo = simcublas_cblas_uplo(uplo),           \
                               .m = (int)m, .n = (int)n, .lda = (int)lda, .ldb = (int)ldb, .ldc = (int)ldc,      \
                               .A = A, .B = B, .C = C};                                                          \
        simcublas_l3_scalars(handle, &a, alpha, sizeof(T), beta, sizeof(T));                                     \
        int64_t ka = side == CUBLAS_SIDE_LEFT ? m : n;                                                           \
        L3_QUEUE(SYM, NAME, T, a, ka, ka, m, n, m, n)                                                            \
    }
/* syrk and herk: S the type of alpha and beta (real for herk), SP its letter. */
#define SYRK_FN(SYM, NAME, IT, T, S, P, SP, cb, op, herm)                                                      \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *a = p;                                                                              \
        cblas_##cb##op(CblasColMajor, a->uplo, a->trans, a->n, a->k,                                           \
                       SIMCUBLAS_L3_VAL_##SP(SIMCUBLAS_L3_ALPHA(S, a)), a->A, a->lda,                          \
                       SIMCUBLAS_L3_VAL_##SP(SIMCUBLAS_L3_BETA(S, a)), a->C, a->ldc);                          \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,      \
                       const S *alpha, const T *A, IT lda, const S *beta, T *C, IT ldc)                        \
    {                                                                                                          \
        bool cplx = SIMCUBLAS_L3_CPLX_##P;                                                                     \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, rank_ok(uplo, trans, cplx, herm, n, k, lda, -1, ldc), \
                                               alpha && beta, SIMCUBLAS_L3_INTS(n, k, lda, ldc), n, n, A, NULL, C); \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        simcublas_l3_args a = {.uplo = simcublas_cblas_uplo(uplo), .trans = simcublas_cblas_trans(trans, cplx), \
                               .n = (int)n, .k = (int)k, .lda = (int)lda, .ldc = (int)ldc, .A = A, .C = C};    \
        simcublas_l3_scalars(handle, &a, alpha, sizeof(S), beta, sizeof(S));                                   \
        int64_t ra = trans == CUBLAS_OP_N ? n : k;                                                             \
        L3_QUEUE(SYM, NAME, T, a, ra, trans == CUBLAS_OP_N ? k : n, 0, 0, n, n)                                \
    }
/* syr2k and her2k: alpha of type T, beta of type S (real for her2k). */
#define SYR2K_FN(SYM, NAME, IT, T, S, P, SP, cb, op, herm)                                                       \
    static void SYM##_run(void *p)                                                                               \
    {                                                                                                            \
        simcublas_l3_args *a = p;                                                                                \
        cblas_##cb##op(CblasColMajor, a->uplo, a->trans, a->n, a->k, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, a)), \
                       a->A, a->lda, a->B, a->ldb, SIMCUBLAS_L3_VAL_##SP(SIMCUBLAS_L3_BETA(S, a)), a->C, a->ldc); \
    }                                                                                                            \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,        \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const S *beta, T *C, IT ldc)      \
    {                                                                                                            \
        bool cplx = SIMCUBLAS_L3_CPLX_##P;                                                                       \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, rank_ok(uplo, trans, cplx, herm, n, k, lda, ldb, ldc), \
                                               alpha && beta, SIMCUBLAS_L3_INTS(n, k, lda, ldb, ldc), n, n, A, B, \
                                               C);                                                               \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                         \
            return st;                                                                                           \
        simcublas_l3_args a = {.uplo = simcublas_cblas_uplo(uplo), .trans = simcublas_cblas_trans(trans, cplx),  \
                               .n = (int)n, .k = (int)k, .lda = (int)lda, .ldb = (int)ldb, .ldc = (int)ldc,      \
                               .A = A, .B = B, .C = C};                                                          \
        simcublas_l3_scalars(handle, &a, alpha, sizeof(T), beta, sizeof(S));                                     \
        int64_t ra = trans == CUBLAS_OP_N ? n : k, ca = trans == CUBLAS_OP_N ? k : n;                            \
        L3_QUEUE(SYM, NAME, T, a, ra, ca, ra, ca, n, n)                                                          \
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
