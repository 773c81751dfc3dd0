/* General Level-2 beyond gemv: gbmv (band) and the rank-1 updates ger,
 * geru, gerc, on the reference CBLAS with arguments checked as cuBLAS
 * documents first (level3.h: CBLAS's own check ends the process); each
 * runs as its stream's work (queue.h).
 * Trace: {"op":"cublasSgbmv","m":..,"n":..,"a":A,"b":x,"c":y}
 *        {"op":"cublasSger","m":..,"n":..,"a":x,"b":y,"c":A}. */
#include "level3.h"

#include <stdlib.h>

#include "queue.h"

#define GBMV_FN(SYM, NAME, IT, T, P, cb)                                                                       \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##gbmv(CblasColMajor, r->trans, r->m, r->n, r->k, r->ldb, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, r)), \
                         r->A, r->lda, r->x, r->incx, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_BETA(T, r)), r->y, r->incy); \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t trans, IT m, IT n, IT kl, IT ku,               \
                       const T *alpha, const T *A, IT lda, const T *x, IT incx, const T *beta, T *y, IT incy)  \
    {                                                                                                          \
        bool ok = simcublas_op_ok(trans) && m >= 0 && n >= 0 && kl >= 0 && ku >= 0 && lda >= kl + ku + 1 &&    \
                  incx != 0 && incy != 0;                                                                      \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha && beta,                                \
                                               SIMCUBLAS_L3_INTS(m, n, kl, ku, lda, llabs(incx), llabs(incy)), \
                                               m, n, A, x, y);                                                 \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                       \
            return st;                                                                                         \
        /* kl in k, ku in ldb */                                                                               \
        simcublas_l3_args r = {.trans = simcublas_cblas_trans(trans, SIMCUBLAS_L3_CPLX_##P), .m = (int)m,      \
                               .n = (int)n, .k = (int)kl, .ldb = (int)ku, .lda = (int)lda, .incx = (int)incx,  \
                               .incy = (int)incy, .A = A, .x = x, .y = y};                                     \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(T));                                   \
        IT lx = trans == CUBLAS_OP_N ? n : m, ly = trans == CUBLAS_OP_N ? m : n;                               \
        simcuda_span sp[3] = {simcublas_mat_span(A, lda, n, lda, sizeof(T), false),                            \
                              simcublas_vec_span(x, lx, incx, sizeof(T), false),                               \
                              simcublas_vec_span(y, ly, incy, sizeof(T), true)};                               \
        return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);                                  \
    }
#define GER_FN(SYM, NAME, IT, T, P, cblas_fn)                                                               \
    static void SYM##_run(void *p)                                                                          \
    {                                                                                                       \
        simcublas_l3_args *r = p;                                                                           \
        cblas_fn(CblasColMajor, r->m, r->n, SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, r)), r->x, r->incx,  \
                 r->B, r->incy, r->C, r->lda);                                                              \
    }                                                                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, IT m, IT n, const T *alpha, const T *x, IT incx, const T *y,  \
                       IT incy, T *A, IT lda)                                                               \
    {                                                                                                       \
        bool ok = m >= 0 && n >= 0 && incx != 0 && incy != 0 && simcublas_ld_ok(lda, m);                    \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha != NULL,                             \
                                               SIMCUBLAS_L3_INTS(m, n, lda, llabs(incx), llabs(incy)), m, n, \
                                               x, y, A);                                                    \
        if (!SIMCUBLAS_L3_RUN(st, m, n))                                                                    \
            return st;                                                                                      \
        simcublas_l3_args r = {.m = (int)m, .n = (int)n, .lda = (int)lda, .incx = (int)incx,                \
                               .incy = (int)incy, .x = x, .B = y, .C = A};                                  \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), NULL, 0);                                        \
        simcuda_span sp[3] = {simcublas_vec_span(x, m, incx, sizeof(T), false),                             \
                              simcublas_vec_span(y, n, incy, sizeof(T), false),                             \
                              simcublas_mat_span(A, m, n, lda, sizeof(T), true)};                           \
        return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, 3);                               \
    }

SIMCUBLAS_BOTH_WIDTHS(GBMV_FN, cublasSgbmv_v2, "cublasSgbmv", float, S, s)
SIMCUBLAS_BOTH_WIDTHS(GBMV_FN, cublasDgbmv_v2, "cublasDgbmv", double, D, d)
SIMCUBLAS_BOTH_WIDTHS(GBMV_FN, cublasCgbmv_v2, "cublasCgbmv", cuComplex, C, c)
SIMCUBLAS_BOTH_WIDTHS(GBMV_FN, cublasZgbmv_v2, "cublasZgbmv", cuDoubleComplex, Z, z)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasSger_v2, "cublasSger", float, S, cblas_sger)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasDger_v2, "cublasDger", double, D, cblas_dger)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasCgeru_v2, "cublasCgeru", cuComplex, C, cblas_cgeru)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasCgerc_v2, "cublasCgerc", cuComplex, C, cblas_cgerc)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasZgeru_v2, "cublasZgeru", cuDoubleComplex, Z, cblas_zgeru)
SIMCUBLAS_BOTH_WIDTHS(GER_FN, cublasZgerc_v2, "cublasZgerc", cuDoubleComplex, Z, cblas_zgerc)
