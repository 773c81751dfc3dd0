/* The complex symmetric (not Hermitian) Level-2 routines cublasCsymv,
 * Zsymv, Csyr, Zsyr, Csyr2, Zsyr2 (+ _64), which have no CBLAS routine:
 * computed here as reference BLAS defines them, on the uplo triangle of A,
 * vectors walked as BLAS walks them (a negative stride from the last
 * element), y not read when beta is 0. Arguments checked as cuBLAS
 * documents (level3.h); each runs as its stream's work (queue.h). Trace as
 * the other symmetric Level-2 calls (level2_sym.c). */
#include <complex.h>
#include <stdlib.h>

#include "level3.h"
#include "queue.h"

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

/* y is written as it is computed: BLAS does not let x and y overlap. */
#define CSYMV_FN(SYM, NAME, IT, T, CT)                                                                           \
    static void SYM##_run(void *p)                                                                               \
    {                                                                                                            \
        simcublas_l3_args *r = p;                                                                                \
        const T *A = r->A, *x = r->x;                                                                            \
        T *y = r->y;                                                                                             \
        int64_t n = r->n, lda = r->lda;                                                                          \
        bool upper = r->uplo == CUBLAS_FILL_MODE_UPPER;                                                          \
        CT a = LOAD(*SIMCUBLAS_L3_ALPHA(T, r)), b = LOAD(*SIMCUBLAS_L3_BETA(T, r));                              \
        for (int64_t i = 0; i < n; i++) {                                                                        \
            CT sum = 0;                                                                                          \
            for (int64_t j = 0; j < n; j++)                                                                      \
                sum += LOAD(stored(upper, i, j) ? A[i + j * lda] : A[j + i * lda]) * LOAD(x[vat(j, n, r->incx)]); \
            T *yi = &y[vat(i, n, r->incy)];                                                                      \
            CT v = a * sum + (b == 0 ? 0 : b * LOAD(*yi));                                                       \
            STORE(*yi, v);                                                                                       \
        }                                                                                                        \
    }                                                                                                            \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *A, IT lda,    \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                        \
    {                                                                                                            \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, csym_ok(uplo, n, lda, incx, incy), alpha && beta,   \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, A, x, y); \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                         \
            return st;                                                                                           \
        simcublas_l3_args r = {.uplo = uplo, .n = (int)n, .lda = (int)lda, .incx = (int)incx, .incy = (int)incy, \
                               .A = A, .x = x, .y = y};                                                          \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(T));                                     \
        simcuda_span sp[3] = {simcublas_mat_span(A, n, n, lda, sizeof(T), false),                                \
                              simcublas_vec_span(x, n, incx, sizeof(T), false),                                  \
                              simcublas_vec_span(y, n, incy, sizeof(T), true)};                                  \
        return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);                                    \
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

/* syr and syr2 (y read from B; NULL for syr), A written. */
#define CSYR_RUN(SYM, T)                                                                                     \
    static void SYM##_run(void *p)                                                                           \
    {                                                                                                        \
        simcublas_l3_args *r = p;                                                                            \
        update_##T(r->uplo == CUBLAS_FILL_MODE_UPPER, r->n, LOAD(*SIMCUBLAS_L3_ALPHA(T, r)), r->x, r->incx,  \
                   r->B, r->incy, r->C, r->lda);                                                             \
    }
#define CSYR_QUEUE(SYM, NAME, T, X_, INCX_, Y_, INCY_, A_, LDA_)                                              \
    simcublas_l3_args r = {.uplo = uplo, .n = (int)n, .lda = (int)LDA_, .incx = (int)INCX_, .incy = (int)INCY_, \
                           .x = X_, .B = Y_, .C = A_};                                                          \
    simcublas_l3_scalars(handle, &r, alpha, sizeof(T), NULL, 0);                                                \
    simcuda_span sp[3] = {simcublas_vec_span(X_, n, INCX_, sizeof(T), false),                                   \
                          simcublas_vec_span(Y_, Y_ ? n : 0, INCY_, sizeof(T), false),                          \
                          simcublas_mat_span(A_, n, n, LDA_, sizeof(T), true)};                                 \
    return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);

#define CSYR_FN(SYM, NAME, IT, T, CT)                                                                        \
    CSYR_RUN(SYM, T)                                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,       \
                       IT incx, T *A, IT lda)                                                                \
    {                                                                                                        \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, csym_ok(uplo, n, lda, incx, 1), alpha != NULL,  \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx)), n, n, x, NULL, A);    \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                     \
            return st;                                                                                       \
        const T *none = NULL;                                                                                \
        CSYR_QUEUE(SYM, NAME, T, x, incx, none, 1, A, lda)                                                   \
    }
#define CSYR2_FN(SYM, NAME, IT, T, CT)                                                                         \
    CSYR_RUN(SYM, T)                                                                                           \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *A, IT lda)                                             \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, csym_ok(uplo, n, lda, incx, incy), alpha != NULL, \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, x,   \
                                               y, A);                                                          \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        CSYR_QUEUE(SYM, NAME, T, x, incx, y, incy, A, lda)                                                     \
    }

#define CSYM_TYPE(P, T, CT)                                                                   \
    SIMCUBLAS_BOTH_WIDTHS(CSYMV_FN, cublas##P##symv_v2, "cublas" #P "symv", T, CT)           \
    SIMCUBLAS_BOTH_WIDTHS(CSYR_FN, cublas##P##syr_v2, "cublas" #P "syr", T, CT)              \
    SIMCUBLAS_BOTH_WIDTHS(CSYR2_FN, cublas##P##syr2_v2, "cublas" #P "syr2", T, CT)

CSYM_TYPE(C, cuComplex, float complex)
CSYM_TYPE(Z, cuDoubleComplex, double complex)
