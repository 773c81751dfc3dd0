/* The complex symmetric (not Hermitian) Level-2 routines cublasCsymv,
 * Zsymv, Csyr, Zsyr, Csyr2, Zsyr2 (+ _64), which have no CBLAS routine:
 * computed here as reference BLAS defines them, on the uplo triangle of A,
 * vectors walked as BLAS walks them (a negative stride from the last
 * element), y not read when beta is 0. Arguments checked as cuBLAS
 * documents (level3.h). Trace as the other symmetric Level-2 calls
 * (level2_sym.c). */
#include <complex.h>
#include <stdlib.h>

#include "level3.h"

static bool csym_ok(cublasFillMode_t uplo, int64_t n, int64_t lda, int64_t incx, int64_t incy)
{
    return simcublas_fill_ok(uplo) && n >= 0 && simcublas_ld_ok(lda, n) && incx != 0 && incy != 0;
}

/* Index of element i of a vector of n with stride inc. */
static int64_t vat(int64_t i, int64_t n, int64_t inc) { return (inc < 0 ? (n - 1 - i) * -inc : i * inc); }

/* Whether (i, j) lies in the stored triangle. */
static bool stored(bool upper, int64_t i, int64_t j) { return upper ? i <= j : i >= j; }

#define LOAD(p) ((p).x + (p).y * I)
#define STORE(p, v) ((p) = (__typeof__(p)){creal(v), cimag(v)})

#define CSYMV_FN(SYM, NAME, IT, T, CT)                                                                           \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *A, IT lda,    \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                        \
    {                                                                                                            \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, csym_ok(uplo, n, lda, incx, incy), alpha && beta,   \
                                               NULL, 0, n, n, A, x, y);                                          \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                         \
            return st;                                                                                           \
        bool upper = uplo == CUBLAS_FILL_MODE_UPPER;                                                             \
        CT a = LOAD(*alpha), b = LOAD(*beta);                                                                    \
        CT *ax = malloc(sizeof(CT) * (size_t)n);                                                                 \
        if (!ax)                                                                                                 \
            return CUBLAS_STATUS_ALLOC_FAILED;                                                                   \
        for (IT i = 0; i < n; i++) {                                                                             \
            CT sum = 0;                                                                                          \
            for (IT j = 0; j < n; j++)                                                                           \
                sum += LOAD(stored(upper, i, j) ? A[i + j * lda] : A[j + i * lda]) * LOAD(x[vat(j, n, incx)]);   \
            ax[i] = sum;                                                                                         \
        }                                                                                                        \
        for (IT i = 0; i < n; i++) {                                                                             \
            T *yi = &y[vat(i, n, incy)];                                                                         \
            CT v = a * ax[i] + (b == 0 ? 0 : b * LOAD(*yi));                                                     \
            STORE(*yi, v);                                                                                       \
        }                                                                                                        \
        free(ax);                                                                                                \
        return st;                                                                                               \
    }

/* syr (y == NULL: A += alpha x x^T) and syr2 (A += alpha (x y^T + y x^T)). */
#define CSYR_UPDATE(T, CT)                                                                                 \
    static void update_##T(bool upper, int64_t n, CT a, const T *x, int64_t incx, const T *y, int64_t incy, \
                           T *A, int64_t lda)                                                              \
    {                                                                                                      \
        for (int64_t j = 0; j < n; j++)                                                                    \
            for (int64_t i = 0; i < n; i++) {                                                              \
                if (!stored(upper, i, j))                                                                  \
                    continue;                                                                              \
                CT xi = LOAD(x[vat(i, n, incx)]), xj = LOAD(x[vat(j, n, incx)]);                           \
                CT u = y ? a * (xi * LOAD(y[vat(j, n, incy)]) + LOAD(y[vat(i, n, incy)]) * xj) : a * xi * xj; \
                STORE(A[i + j * lda], LOAD(A[i + j * lda]) + u);                                           \
            }                                                                                              \
    }
CSYR_UPDATE(cuComplex, float complex)
CSYR_UPDATE(cuDoubleComplex, double complex)

#define CSYR_FN(SYM, NAME, IT, T, CT)                                                                        \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,       \
                       IT incx, T *A, IT lda)                                                                \
    {                                                                                                        \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, csym_ok(uplo, n, lda, incx, 1), alpha != NULL,  \
                                               NULL, 0, n, n, x, NULL, A);                                   \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                      \
            update_##T(uplo == CUBLAS_FILL_MODE_UPPER, n, LOAD(*alpha), x, incx, NULL, 1, A, lda);           \
        return st;                                                                                           \
    }
#define CSYR2_FN(SYM, NAME, IT, T, CT)                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *A, IT lda)                                             \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, csym_ok(uplo, n, lda, incx, incy), alpha != NULL, \
                                               NULL, 0, n, n, x, y, A);                                        \
        if (SIMCUBLAS_L3_RUN(st, n, n))                                                                        \
            update_##T(uplo == CUBLAS_FILL_MODE_UPPER, n, LOAD(*alpha), x, incx, y, incy, A, lda);             \
        return st;                                                                                             \
    }

#define CSYM_TYPE(P, T, CT)                                                                   \
    SIMCUBLAS_BOTH_WIDTHS(CSYMV_FN, cublas##P##symv_v2, "cublas" #P "symv", T, CT)           \
    SIMCUBLAS_BOTH_WIDTHS(CSYR_FN, cublas##P##syr_v2, "cublas" #P "syr", T, CT)              \
    SIMCUBLAS_BOTH_WIDTHS(CSYR2_FN, cublas##P##syr2_v2, "cublas" #P "syr2", T, CT)

CSYM_TYPE(C, cuComplex, float complex)
CSYM_TYPE(Z, cuDoubleComplex, double complex)
