/* cuBLAS's Level-3 extensions with no CBLAS routine, computed here:
 * syrkx (C = alpha op(A) op(B)^T + beta C) and herkx (C = alpha op(A)
 * op(B)^H + beta C, beta real, the diagonal's imaginary parts zeroed), on
 * the uplo triangle of C, C not read when beta is 0; and the pointer-array
 * trsmBatched, one trsm per batch. Arguments checked as cuBLAS documents
 * (level3.h). Trace: syrkx/herkx as syrk (level3_sym.c); trsmBatched one
 * trsm line per batch, named cublasStrsmBatched. */
#include <complex.h>

#include "level3.h"
#include "queue.h"

/* op(X)(i, l) of a stored X: X(i, l) for N, X(l, i) otherwise. */
#define OPX(X, ld, trans, i, l) ((trans) == CUBLAS_OP_N ? (X)[(i) + (l) * (ld)] : (X)[(l) + (i) * (ld)])
#define CLOAD(p) ((p).x + (p).y * I)
#define CSTORE(p, v) ((p) = (__typeof__(p)){creal(v), cimag(v)})
#define RLOAD(p) (p)
#define RSTORE(p, v) ((p) = (v))
#define NOCONJ(v) (v)

static bool rankx_ok(cublasFillMode_t uplo, cublasOperation_t trans, bool cplx, bool herm, int64_t n, int64_t k,
                     int64_t lda, int64_t ldb, int64_t ldc)
{
    bool trans_ok = trans == CUBLAS_OP_N || (herm ? trans == CUBLAS_OP_C
                                                  : trans == CUBLAS_OP_T || (!cplx && trans == CUBLAS_OP_C));
    int64_t rows = trans == CUBLAS_OP_N ? n : k;
    return simcublas_fill_ok(uplo) && trans_ok && n >= 0 && k >= 0 && simcublas_ld_ok(lda, rows) &&
           simcublas_ld_ok(ldb, rows) && simcublas_ld_ok(ldc, n);
}

/* T element, S the type of beta (BLOAD reads it), CT the arithmetic type;
 * BC conjugates op(B) (herkx). Runs as the stream's work (queue.h): uplo
 * and trans are kept as cuBLAS's values in the record's fields. */
#define RANKX_FN(SYM, NAME, IT, T, S, CT, LOAD, BLOAD, STORE, cplx, herm, BC)                                  \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        const T *A = r->A, *B = r->B;                                                                          \
        T *C = r->C;                                                                                           \
        int n = r->n, k = r->k, lda = r->lda, ldb = r->ldb, ldc = r->ldc;                                      \
        cublasOperation_t trans = (cublasOperation_t)r->trans;                                                 \
        bool upper = r->uplo == CUBLAS_FILL_MODE_UPPER, conj_op = (cplx) && trans == CUBLAS_OP_C;              \
        CT a = LOAD(*SIMCUBLAS_L3_ALPHA(T, r)), b = BLOAD(*SIMCUBLAS_L3_BETA(S, r));                           \
        for (int j = 0; j < n; j++)                                                                            \
            for (int i = upper ? 0 : j; i < (upper ? j + 1 : n); i++) {                                        \
                CT sum = 0;                                                                                    \
                for (int l = 0; l < k; l++) {                                                                  \
                    CT x = LOAD(OPX(A, lda, trans, i, l)), y = LOAD(OPX(B, ldb, trans, j, l));                 \
                    if (conj_op) {                                                                             \
                        x = conj_of(x);                                                                        \
                        y = conj_of(y);                                                                        \
                    }                                                                                          \
                    sum += x * BC(y);                                                                          \
                }                                                                                              \
                CT v = a * sum + (b == 0 ? 0 : b * LOAD(C[i + j * ldc]));                                     \
                if ((herm) && i == j)                                                                          \
                    v = real_of(v);                                                                            \
                STORE(C[i + j * ldc], v);                                                                      \
            }                                                                                                  \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,      \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const S *beta, T *C, IT ldc)    \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, rankx_ok(uplo, trans, cplx, herm, n, k, lda, ldb, ldc), \
                                               alpha && beta, SIMCUBLAS_L3_INTS(n, k, lda, ldb, ldc), n, n, A, B, C); \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        simcublas_l3_args r = {.uplo = uplo, .trans = trans, .n = (int)n, .k = (int)k, .lda = (int)lda,        \
                               .ldb = (int)ldb, .ldc = (int)ldc, .A = A, .B = B, .C = C};                      \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(S));                                   \
        int64_t ra = trans == CUBLAS_OP_N ? n : k, ca = trans == CUBLAS_OP_N ? k : n;                          \
        simcuda_span sp[3] = {simcublas_mat_span(A, ra, ca, lda, sizeof(T), false),                            \
                              simcublas_mat_span(B, ra, ca, ldb, sizeof(T), false),                            \
                              simcublas_mat_span(C, n, n, ldc, sizeof(T), true)};                              \
        return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);                                  \
    }
#define conj_of(v) _Generic((v), float complex: conjf(v), double complex: conj(v), default: (v))
#define real_of(v) _Generic((v), float complex: crealf(v), double complex: creal(v), default: (v))
#define CONJ(v) conj_of(v)

SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasSsyrkx, "cublasSsyrkx", float, float, float, RLOAD, RLOAD, RSTORE, false, false,
                      NOCONJ)
SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasDsyrkx, "cublasDsyrkx", double, double, double, RLOAD, RLOAD, RSTORE, false,
                      false, NOCONJ)
SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasCsyrkx, "cublasCsyrkx", cuComplex, cuComplex, float complex, CLOAD, CLOAD,
                      CSTORE, true, false, NOCONJ)
SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasZsyrkx, "cublasZsyrkx", cuDoubleComplex, cuDoubleComplex, double complex, CLOAD,
                      CLOAD, CSTORE, true, false, NOCONJ)
SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasCherkx, "cublasCherkx", cuComplex, float, float complex, CLOAD, RLOAD, CSTORE,
                      true, true, CONJ)
SIMCUBLAS_BOTH_WIDTHS(RANKX_FN, cublasZherkx, "cublasZherkx", cuDoubleComplex, double, double complex, CLOAD, RLOAD,
                      CSTORE, true, true, CONJ)

#define TRSM_BATCHED_FN(SYM, NAME, IT, T, typed)                                                               \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                    \
                       cublasOperation_t trans, cublasDiagType_t diag, IT m, IT n, const T *alpha,             \
                       const T *const A[], IT lda, T *const B[], IT ldb, IT batchCount)                        \
    {                                                                                                          \
        if (!simcublas_handle_ok(handle))                                                                      \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                                              \
        if (batchCount < 0 || (batchCount > 0 && (!A || !B)))                                                  \
            return CUBLAS_STATUS_INVALID_VALUE;                                                                \
        for (IT i = 0; i < batchCount; i++) {                                                                  \
            simcublas_l3_trace_as(NAME);                                                                       \
            cublasStatus_t st = typed(handle, side, uplo, trans, diag, m, n, alpha, A[i], lda, B[i], ldb);     \
            if (st != CUBLAS_STATUS_SUCCESS)                                                                   \
                return st;                                                                                     \
        }                                                                                                      \
        return CUBLAS_STATUS_SUCCESS;                                                                          \
    }

SIMCUBLAS_BOTH_WIDTHS(TRSM_BATCHED_FN, cublasStrsmBatched, "cublasStrsmBatched", float, cublasStrsm_v2_64)
SIMCUBLAS_BOTH_WIDTHS(TRSM_BATCHED_FN, cublasDtrsmBatched, "cublasDtrsmBatched", double, cublasDtrsm_v2_64)
SIMCUBLAS_BOTH_WIDTHS(TRSM_BATCHED_FN, cublasCtrsmBatched, "cublasCtrsmBatched", cuComplex, cublasCtrsm_v2_64)
SIMCUBLAS_BOTH_WIDTHS(TRSM_BATCHED_FN, cublasZtrsmBatched, "cublasZtrsmBatched", cuDoubleComplex, cublasZtrsm_v2_64)
