/* cuBLAS's Level-3 extensions with no CBLAS routine, computed here:
 * syrkx (C = alpha op(A) op(B)^T + beta C) and herkx (C = alpha op(A)
 * op(B)^H + beta C, beta real, the diagonal's imaginary parts zeroed), on
 * the uplo triangle of C, C not read when beta is 0; and the pointer-array
 * trsmBatched, one trsm per batch. Arguments checked as cuBLAS documents
 * (level3.h). Trace: syrkx/herkx as syrk (level3_sym.c); trsmBatched one
 * trsm line per batch, named cublasStrsmBatched. */
#include <complex.h>

#include "level3.h"

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
 * BC conjugates op(B) (herkx). */
#define RANKX_FN(SYM, NAME, IT, T, S, CT, LOAD, BLOAD, STORE, cplx, herm, BC)                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,      \
                       const T *alpha, const T *A, IT lda, const T *B, IT ldb, const S *beta, T *C, IT ldc)    \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, rankx_ok(uplo, trans, cplx, herm, n, k, lda, ldb, ldc), \
                                               alpha && beta, NULL, 0, n, n, A, B, C);                         \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        bool upper = uplo == CUBLAS_FILL_MODE_UPPER, conj_op = (cplx) && trans == CUBLAS_OP_C;                 \
        CT a = LOAD(*alpha), b = BLOAD(*beta);                                                                        \
        for (IT j = 0; j < n; j++)                                                                             \
            for (IT i = upper ? 0 : j; i < (upper ? j + 1 : n); i++) {                                         \
                CT sum = 0;                                                                                    \
                for (IT l = 0; l < k; l++) {                                                                   \
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
        return st;                                                                                             \
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
