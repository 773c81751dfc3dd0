/* cublas<t>dgmm: C = A diag(x) (CUBLAS_SIDE_RIGHT) or diag(x) A (LEFT), a
 * cuBLAS extension with no BLAS routine, computed here element by element
 * (one product each, so exact in any order). x is walked as BLAS walks a
 * vector (a negative incx from its last element); C may be A (ldc == lda).
 * Runs as the stream's work (queue.h).
 * Trace: {"op":"cublasSdgmm","m":..,"n":..,"a":..,"b":x,"c":..}. */
#include "level3.h"

#include <stdlib.h>

#include "queue.h"

#define MUL_REAL(a, b) ((a) * (b))
#define MUL_CPLX(a, b) ((__typeof__(a)){(a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x})

#define DGMM_FN(SYM, NAME, IT, T, MUL)                                                                         \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        const T *A = r->A, *x = r->x;                                                                          \
        T *C = r->C;                                                                                           \
        bool left = r->side == CUBLAS_SIDE_LEFT;                                                               \
        int64_t len = left ? r->m : r->n, first = r->incx < 0 ? (len - 1) * -r->incx : 0;                      \
        for (int64_t j = 0; j < r->n; j++)                                                                     \
            for (int64_t i = 0; i < r->m; i++)                                                                 \
                C[i + j * r->ldc] = MUL(A[i + j * r->lda], x[first + (left ? i : j) * r->incx]);               \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasSideMode_t mode, IT m, IT n, const T *A, IT lda,           \
                       const T *x, IT incx, T *C, IT ldc)                                                      \
    {                                                                                                          \
        bool ok = simcublas_side_ok(mode) && m >= 0 && n >= 0 && simcublas_ld_ok(lda, m) &&                    \
                  simcublas_ld_ok(ldc, m) && ((const void *)A != (const void *)C || lda == ldc);               \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, true, SIMCUBLAS_L3_INTS(m, n, lda, ldc,      \
                                               llabs((long long)incx)), m, n, A, x, C);                        \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                       \
            return st;                                                                                         \
        simcublas_l3_args r = {.side = mode, .m = (int)m, .n = (int)n, .lda = (int)lda, .ldc = (int)ldc,       \
                               .incx = (int)incx, .A = A, .x = x, .C = C};                                     \
        simcuda_span sp[3] = {simcublas_mat_span(A, m, n, lda, sizeof(T), false),                              \
                              simcublas_vec_span(x, mode == CUBLAS_SIDE_LEFT ? m : n, incx, sizeof(T), false), \
                              simcublas_mat_span(C, m, n, ldc, sizeof(T), true)};                              \
        return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);                                  \
    }

SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasSdgmm, "cublasSdgmm", float, MUL_REAL)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasDdgmm, "cublasDdgmm", double, MUL_REAL)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasCdgmm, "cublasCdgmm", cuComplex, MUL_CPLX)
SIMCUBLAS_BOTH_WIDTHS(DGMM_FN, cublasZdgmm, "cublasZdgmm", cuDoubleComplex, MUL_CPLX)
