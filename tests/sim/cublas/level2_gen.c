/* General Level-2 beyond gemv: gbmv (band) and the rank-1 updates ger,
 * geru, gerc, on the reference CBLAS with arguments checked as cuBLAS
 * documents first (level3.h: CBLAS's own check ends the process).
 * Trace: {"op":"cublasSgbmv","m":..,"n":..,"a":A,"b":x,"c":y}
 *        {"op":"cublasSger","m":..,"n":..,"a":x,"b":y,"c":A}. */
#include "level3.h"

#include <stdlib.h>

#define GBMV_FN(SYM, NAME, IT, T, P, cb)                                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t trans, IT m, IT n, IT kl, IT ku,               \
                       const T *alpha, const T *A, IT lda, const T *x, IT incx, const T *beta, T *y, IT incy)  \
    {                                                                                                          \
        bool ok = simcublas_op_ok(trans) && m >= 0 && n >= 0 && kl >= 0 && ku >= 0 && lda >= kl + ku + 1 &&    \
                  incx != 0 && incy != 0;                                                                      \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha && beta,                                \
                                               SIMCUBLAS_L3_INTS(m, n, kl, ku, lda, llabs(incx), llabs(incy)), \
                                               m, n, A, x, y);                                                 \
        if (SIMCUBLAS_L3_RUN(st, m, n))                                                                        \
            cblas_##cb##gbmv(CblasColMajor, simcublas_cblas_trans(trans, SIMCUBLAS_L3_CPLX_##P), (int)m, (int)n, \
                             (int)kl, (int)ku, SIMCUBLAS_L3_VAL_##P(alpha), A, (int)lda, x, (int)incx,         \
                             SIMCUBLAS_L3_VAL_##P(beta), y, (int)incy);                                        \
        return st;                                                                                             \
    }
#define GER_FN(SYM, NAME, IT, T, P, cblas_fn)                                                               \
    cublasStatus_t SYM(cublasHandle_t handle, IT m, IT n, const T *alpha, const T *x, IT incx, const T *y,  \
                       IT incy, T *A, IT lda)                                                               \
    {                                                                                                       \
        bool ok = m >= 0 && n >= 0 && incx != 0 && incy != 0 && simcublas_ld_ok(lda, m);                    \
        cublasStatus_t st = simcublas_l3_begin(handle, NAME, ok, alpha != NULL,                             \
                                               SIMCUBLAS_L3_INTS(m, n, lda, llabs(incx), llabs(incy)), m, n, \
                                               x, y, A);                                                    \
        if (SIMCUBLAS_L3_RUN(st, m, n))                                                                     \
            cblas_fn(CblasColMajor, (int)m, (int)n, SIMCUBLAS_L3_VAL_##P(alpha), x, (int)incx, y, (int)incy, \
                     A, (int)lda);                                                                          \
        return st;                                                                                          \
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
