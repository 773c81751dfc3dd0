/* Level-1 updates of vectors: axpy, scal (and the real scale of a complex
 * vector, Csscal/Zdscal), copy, swap; reference CBLAS semantics (level1.h).
 * Each runs as its stream's work (queue.h): the arguments are kept by value
 * (a host-mode alpha read now), the vectors are touched when it runs.
 * Trace: {"op":"cublasSaxpy","n":..,"incx":..,"incy":..,"x":..,"y":..}. */
#include "level1.h"
#include "queue.h"

/* Runner and argument record of one routine (SYM names both). */
#define VEC_ARGS(SYM, S, T) \
    typedef struct {        \
        int n, incx, incy;  \
        SIMCUBLAS_SCALAR(S) alpha; \
        const T *x;         \
        T *y;               \
    } SYM##_args;

/* Queues SYM's runner; vector x (written when XW) and, if present, y. */
#define VEC_QUEUE(SYM, NAME, T, XW, a)                                                                   \
    simcuda_span sp_[2] = {simcublas_vec_span((a).x, (a).n, (a).incx, sizeof(T), XW),                     \
                           simcublas_vec_span((a).y, (a).n, (a).incy, sizeof(T), true)};                  \
    return simcublas_queue(handle, NAME, SYM##_run, &(a), sizeof(a), sp_, (a).y ? 2 : 1);

#define AXPY_FN(SYM, NAME, IT, P, T, cb)                                                                  \
    VEC_ARGS(SYM, T, T)                                                                                   \
    static void SYM##_run(void *p)                                                                        \
    {                                                                                                     \
        SYM##_args *a = p;                                                                                \
        T al = SIMCUBLAS_SCALAR_GET(a->alpha);                                                            \
        cblas_##cb##axpy(a->n, SIMCUBLAS_L1_VAL_##P(&al), a->x, a->incx, a->y, a->incy);                  \
    }                                                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *alpha, const T *x, IT incx, T *y, IT incy) \
    {                                                                                                     \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, alpha != NULL, n, incx, incy, x, y);       \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                                     \
            return st;                                                                                    \
        SYM##_args a = {.n = (int)n, .incx = (int)incx, .incy = (int)incy, .x = x, .y = y};               \
        SIMCUBLAS_SCALAR_SET(handle, a.alpha, alpha);                                                     \
        VEC_QUEUE(SYM, NAME, T, false, a)                                                                 \
    }
#define SCAL_FN(SYM, NAME, IT, P, T, S, cb)                                                       \
    VEC_ARGS(SYM, S, T)                                                                           \
    static void SYM##_run(void *p)                                                                \
    {                                                                                             \
        SYM##_args *a = p;                                                                        \
        S al = SIMCUBLAS_SCALAR_GET(a->alpha);                                                    \
        cblas_##cb##scal(a->n, SIMCUBLAS_L1_VAL_##P(&al), (T *)(uintptr_t)a->x, a->incx);         \
    }                                                                                             \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const S *alpha, T *x, IT incx)               \
    {                                                                                             \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, alpha != NULL, n, incx, 1, x, NULL); \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                             \
            return st;                                                                            \
        SYM##_args a = {.n = (int)n, .incx = (int)incx, .x = x};                                  \
        SIMCUBLAS_SCALAR_SET(handle, a.alpha, alpha);                                             \
        VEC_QUEUE(SYM, NAME, T, true, a)                                                          \
    }
/* copy reads x; swap writes both (XW). */
#define COPY_FN(SYM, NAME, IT, T, cb, op, CONST, XW)                                      \
    VEC_ARGS(SYM, T, T)                                                                   \
    static void SYM##_run(void *p)                                                        \
    {                                                                                     \
        SYM##_args *a = p;                                                                \
        cblas_##cb##op(a->n, (T *)(uintptr_t)a->x, a->incx, a->y, a->incy);               \
    }                                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, CONST T *x, IT incx, T *y, IT incy)    \
    {                                                                                     \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, true, n, incx, incy, x, y);  \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                     \
            return st;                                                                    \
        SYM##_args a = {.n = (int)n, .incx = (int)incx, .incy = (int)incy, .x = x, .y = y}; \
        VEC_QUEUE(SYM, NAME, T, XW, a)                                                    \
    }

#define VEC_TYPE(P, T, cb)                                                                             \
    SIMCUBLAS_BOTH_WIDTHS(AXPY_FN, cublas##P##axpy_v2, "cublas" #P "axpy", P, T, cb)                   \
    SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublas##P##scal_v2, "cublas" #P "scal", P, T, T, cb)                \
    SIMCUBLAS_BOTH_WIDTHS(COPY_FN, cublas##P##copy_v2, "cublas" #P "copy", T, cb, copy, const, false)  \
    SIMCUBLAS_BOTH_WIDTHS(COPY_FN, cublas##P##swap_v2, "cublas" #P "swap", T, cb, swap, , true)

VEC_TYPE(S, float, s)
VEC_TYPE(D, double, d)
VEC_TYPE(C, cuComplex, c)
VEC_TYPE(Z, cuDoubleComplex, z)
SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublasCsscal_v2, "cublasCsscal", S, cuComplex, float, cs)
SIMCUBLAS_BOTH_WIDTHS(SCAL_FN, cublasZdscal_v2, "cublasZdscal", D, cuDoubleComplex, double, zd)
