/* Symmetric (real) and Hermitian (complex) Level-2: symv/hemv, sbmv/hbmv,
 * spmv/hpmv, syr/her, spr/hpr, syr2/her2, spr2/hpr2 on the reference CBLAS,
 * arguments checked as cuBLAS documents first (level3.h). The complex
 * symmetric forms (cublasCsymv, Csyr, Csyr2 and Z) have no CBLAS routine:
 * level2_csym.c. Each runs as its stream's work (queue.h).
 * Trace: {"op":"cublasSsymv","m":n,"n":n,"a":A,"b":x,"c":y}; the rank
 * updates: "a":x,"b":y (0 for syr/her/spr/hpr),"c":A. */
#include "level3.h"

#include <stdlib.h>

#include "queue.h"

static bool sym_ok(cublasFillMode_t uplo, int64_t n, int64_t incx, int64_t incy)
{
    return simcublas_fill_ok(uplo) && n >= 0 && incx != 0 && incy != 0;
}

#define CBLAS_SYM_HEAD CblasColMajor, r->uplo, r->n
#define ALPHA(T, P) SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_ALPHA(T, r))
#define BETA(T, P) SIMCUBLAS_L3_VAL_##P(SIMCUBLAS_L3_BETA(T, r))
#define VEC(v, n, inc, T, w) simcublas_vec_span(v, n, inc, sizeof(T), w)

/* The record of a call: uplo, n, k (band), lda, strides, A (or AP) read in
 * A or written in C, x read, y read in B or written in y; queued with the
 * spans of its operands. */
#define RECORD(...)                                                                     \
    simcublas_l3_args r = {.uplo = simcublas_cblas_uplo(uplo), .n = (int)n, __VA_ARGS__}
#define QUEUE(SYM, NAME, ...)                                                           \
    simcuda_span sp[] = {__VA_ARGS__};                                                  \
    return simcublas_queue(handle, NAME, SYM##_run, &r, sizeof r, sp, sizeof sp / sizeof sp[0]);

/* symv/hemv (band: sbmv/hbmv with k) y = alpha A x + beta y. */
#define SYMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                  \
    static void SYM##_run(void *p)                                                                            \
    {                                                                                                         \
        simcublas_l3_args *r = p;                                                                             \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(T, P), r->A, r->lda, r->x, r->incx, BETA(T, P), r->y, r->incy);  \
    }                                                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *A, IT lda, \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                     \
    {                                                                                                         \
        bool ok = sym_ok(uplo, n, incx, incy) && simcublas_ld_ok(lda, n);                                     \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha && beta,                               \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, A,  \
                                               x, y);                                                         \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                      \
            return st;                                                                                        \
        RECORD(.lda = (int)lda, .incx = (int)incx, .incy = (int)incy, .A = A, .x = x, .y = y);                \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(T));                                  \
        QUEUE(SYM, NAME, simcublas_mat_span(A, n, n, lda, sizeof(T), false), VEC(x, n, incx, T, false),       \
              VEC(y, n, incy, T, true))                                                                       \
    }
#define SBMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                 \
    static void SYM##_run(void *p)                                                                           \
    {                                                                                                        \
        simcublas_l3_args *r = p;                                                                            \
        cblas_##cb##op(CBLAS_SYM_HEAD, r->k, ALPHA(T, P), r->A, r->lda, r->x, r->incx, BETA(T, P), r->y,     \
                       r->incy);                                                                             \
    }                                                                                                        \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, IT k, const T *alpha, const T *A, \
                       IT lda, const T *x, IT incx, const T *beta, T *y, IT incy)                            \
    {                                                                                                        \
        bool ok = sym_ok(uplo, n, incx, incy) && k >= 0 && lda >= k + 1;                                     \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha && beta,                              \
                                               SIMCUBLAS_L3_INTS(n, k, lda, llabs(incx), llabs(incy)), n, n, \
                                               A, x, y);                                                     \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                     \
            return st;                                                                                       \
        RECORD(.k = (int)k, .lda = (int)lda, .incx = (int)incx, .incy = (int)incy, .A = A, .x = x, .y = y);  \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(T));                                 \
        QUEUE(SYM, NAME, simcublas_mat_span(A, lda, n, lda, sizeof(T), false), VEC(x, n, incx, T, false),    \
              VEC(y, n, incy, T, true))                                                                      \
    }
#define SPMV_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(T, P), r->A, r->x, r->incx, BETA(T, P), r->y, r->incy);           \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *AP,        \
                       const T *x, IT incx, const T *beta, T *y, IT incy)                                      \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, sym_ok(uplo, n, incx, incy), alpha && beta,       \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx), llabs(incy)), n, n, AP, x, y); \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        RECORD(.incx = (int)incx, .incy = (int)incy, .A = AP, .x = x, .y = y);                                 \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), beta, sizeof(T));                                   \
        QUEUE(SYM, NAME, VEC(AP, n * (n + 1) / 2, 1, T, false), VEC(x, n, incx, T, false),                     \
              VEC(y, n, incy, T, true))                                                                        \
    }
/* syr/her (A full, lda) and spr/hpr (packed): alpha of type S. */
#define SYR_FN(SYM, NAME, IT, T, S, SP, cb, op)                                                               \
    static void SYM##_run(void *p)                                                                            \
    {                                                                                                         \
        simcublas_l3_args *r = p;                                                                             \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(S, SP), r->x, r->incx, r->C, r->lda);                            \
    }                                                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const S *alpha, const T *x,        \
                       IT incx, T *A, IT lda)                                                                 \
    {                                                                                                         \
        bool ok = sym_ok(uplo, n, incx, 1) && simcublas_ld_ok(lda, n);                                        \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha != NULL,                               \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx)), n, n, x, NULL, A);     \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                      \
            return st;                                                                                        \
        RECORD(.lda = (int)lda, .incx = (int)incx, .x = x, .C = A);                                           \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(S), NULL, 0);                                          \
        QUEUE(SYM, NAME, VEC(x, n, incx, T, false), simcublas_mat_span(A, n, n, lda, sizeof(T), true))        \
    }
#define SPR_FN(SYM, NAME, IT, T, S, SP, cb, op)                                                                \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(S, SP), r->x, r->incx, r->C);                                     \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const S *alpha, const T *x,         \
                       IT incx, T *AP)                                                                         \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, sym_ok(uplo, n, incx, 1), alpha != NULL,          \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx)), n, n, x, NULL, AP);          \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        RECORD(.incx = (int)incx, .x = x, .C = AP);                                                            \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(S), NULL, 0);                                           \
        QUEUE(SYM, NAME, VEC(x, n, incx, T, false), VEC(AP, n * (n + 1) / 2, 1, T, true))                      \
    }
/* syr2/her2 and spr2/hpr2: alpha of type T. */
#define SYR2_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(T, P), r->x, r->incx, r->B, r->incy, r->C, r->lda);               \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *A, IT lda)                                             \
    {                                                                                                          \
        bool ok = sym_ok(uplo, n, incx, incy) && simcublas_ld_ok(lda, n);                                      \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, ok, alpha != NULL,                                \
                                               SIMCUBLAS_L3_INTS(n, lda, llabs(incx), llabs(incy)), n, n, x,   \
                                               y, A);                                                          \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        RECORD(.lda = (int)lda, .incx = (int)incx, .incy = (int)incy, .x = x, .B = y, .C = A);                 \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), NULL, 0);                                           \
        QUEUE(SYM, NAME, VEC(x, n, incx, T, false), VEC(y, n, incy, T, false),                                 \
              simcublas_mat_span(A, n, n, lda, sizeof(T), true))                                               \
    }
#define SPR2_FN(SYM, NAME, IT, T, P, cb, op)                                                                   \
    static void SYM##_run(void *p)                                                                             \
    {                                                                                                          \
        simcublas_l3_args *r = p;                                                                              \
        cblas_##cb##op(CBLAS_SYM_HEAD, ALPHA(T, P), r->x, r->incx, r->B, r->incy, r->C);                       \
    }                                                                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, IT n, const T *alpha, const T *x,         \
                       IT incx, const T *y, IT incy, T *AP)                                                    \
    {                                                                                                          \
        cublasStatus_t st = simcublas_l3_start(handle, NAME, sym_ok(uplo, n, incx, incy), alpha != NULL,       \
                                               SIMCUBLAS_L3_INTS(n, llabs(incx), llabs(incy)), n, n, x, y, AP); \
        if (!SIMCUBLAS_L3_RUN(st, n, n))                                                                       \
            return st;                                                                                         \
        RECORD(.incx = (int)incx, .incy = (int)incy, .x = x, .B = y, .C = AP);                                 \
        simcublas_l3_scalars(handle, &r, alpha, sizeof(T), NULL, 0);                                           \
        QUEUE(SYM, NAME, VEC(x, n, incx, T, false), VEC(y, n, incy, T, false),                                 \
              VEC(AP, n * (n + 1) / 2, 1, T, true))                                                            \
    }

/* s: the symmetric spelling (sy/sb/sp), h: the Hermitian one. */
#define SYM2_TYPE(P, T, cb, s, b, p)                                                                   \
    SIMCUBLAS_BOTH_WIDTHS(SYMV_FN, cublas##P##s##mv_v2, "cublas" #P #s "mv", T, P, cb, s##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SBMV_FN, cublas##P##b##mv_v2, "cublas" #P #b "mv", T, P, cb, b##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SPMV_FN, cublas##P##p##mv_v2, "cublas" #P #p "mv", T, P, cb, p##mv)         \
    SIMCUBLAS_BOTH_WIDTHS(SYR2_FN, cublas##P##s##r2_v2, "cublas" #P #s "r2", T, P, cb, s##r2)         \
    SIMCUBLAS_BOTH_WIDTHS(SPR2_FN, cublas##P##p##r2_v2, "cublas" #P #p "r2", T, P, cb, p##r2)

SYM2_TYPE(S, float, s, sy, sb, sp)
SYM2_TYPE(D, double, d, sy, sb, sp)
SYM2_TYPE(C, cuComplex, c, he, hb, hp)
SYM2_TYPE(Z, cuDoubleComplex, z, he, hb, hp)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasSsyr_v2, "cublasSsyr", float, float, S, s, syr)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasDsyr_v2, "cublasDsyr", double, double, D, d, syr)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasCher_v2, "cublasCher", cuComplex, float, S, c, her)
SIMCUBLAS_BOTH_WIDTHS(SYR_FN, cublasZher_v2, "cublasZher", cuDoubleComplex, double, D, z, her)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasSspr_v2, "cublasSspr", float, float, S, s, spr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasDspr_v2, "cublasDspr", double, double, D, d, spr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasChpr_v2, "cublasChpr", cuComplex, float, S, c, hpr)
SIMCUBLAS_BOTH_WIDTHS(SPR_FN, cublasZhpr_v2, "cublasZhpr", cuDoubleComplex, double, D, z, hpr)
