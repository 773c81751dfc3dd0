/* Level-1 reductions: dot (dotu, dotc), nrm2, asum, iamax, iamin; reference
 * CBLAS semantics (level1.h). The result goes where the pointer says, host
 * or device alike. Empty problems (n <= 0, or incx <= 0 for nrm2, asum and
 * the index searches) give 0, as BLAS defines. amax/amin indexes count
 * from 1; iamin has no CBLAS routine and is computed here in the same
 * terms as iamax (|re| + |im| for complex, first of equals). Each runs as
 * its stream's work (queue.h); with a host result the call waits for it.
 * Trace: {"op":"cublasSdot","n":..,"incx":..,"incy":..,"x":..,"y":..}. */
#include "level1.h"

#include <math.h>
#include <string.h>

#include "queue.h"

/* The argument record of a reduction of vectors of T into an R. */
#define RED_ARGS(SYM, T, R)  \
    typedef struct {         \
        int n, incx, incy;   \
        const T *x, *y;      \
        R *result;           \
    } SYM##_args;

/* Queues SYM's runner (the call has checked its arguments: st SUCCESS). */
#define RED_QUEUE(SYM, NAME, T, R, n_, incx_, incy_, x_, y_, result_)                                    \
    if (st != CUBLAS_STATUS_SUCCESS || sim_noop())                                                       \
        return st;                                                                                       \
    SYM##_args a = {(int)(n_ > 0 ? n_ : 0), (int)incx_, (int)incy_, x_, y_, result_};                   \
    simcuda_span sp[3] = {simcublas_vec_span(x_, a.n, a.incx, sizeof(T), false),                         \
                          simcublas_vec_span(y_, y_ ? a.n : 0, a.incy, sizeof(T), false),                \
                          simcublas_result_span(handle, result_, sizeof(R))};                            \
    return simcublas_queue_result(handle, NAME, SYM##_run, &a, sizeof a, sp, 3);

#define DOT_REAL_FN(SYM, NAME, IT, T, cb)                                                                     \
    RED_ARGS(SYM, T, T)                                                                                     \
    static void SYM##_run(void *p)                                                                          \
    {                                                                                                       \
        SYM##_args *a = p;                                                                                  \
        *a->result = a->n > 0 ? cblas_##cb##dot(a->n, a->x, a->incx, a->y, a->incy) : 0;                    \
    }                                                                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, const T *y, IT incy, T *result)   \
    {                                                                                                       \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, result != NULL, n, incx, incy, x, y);          \
        RED_QUEUE(SYM, NAME, T, T, n, incx, incy, x, y, result)                                             \
    }
#define DOT_CPLX_FN(SYM, NAME, IT, T, cb, kind)                                                               \
    RED_ARGS(SYM, T, T)                                                                                     \
    static void SYM##_run(void *p)                                                                          \
    {                                                                                                       \
        SYM##_args *a = p;                                                                                  \
        memset(a->result, 0, sizeof *a->result);                                                            \
        if (a->n > 0)                                                                                       \
            cblas_##cb##dot##kind##_sub(a->n, a->x, a->incx, a->y, a->incy, a->result);                     \
    }                                                                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, const T *y, IT incy, T *result)   \
    {                                                                                                       \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, result != NULL, n, incx, incy, x, y);          \
        RED_QUEUE(SYM, NAME, T, T, n, incx, incy, x, y, result)                                             \
    }
/* nrm2 and asum: a real result of a vector of type T. */
#define NORM_FN(SYM, NAME, IT, T, R, fn)                                                          \
    RED_ARGS(SYM, T, R)                                                                         \
    static void SYM##_run(void *p)                                                              \
    {                                                                                           \
        SYM##_args *a = p;                                                                      \
        *a->result = a->n > 0 && a->incx > 0 ? fn(a->n, a->x, a->incx) : 0;                    \
    }                                                                                           \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, R *result)              \
    {                                                                                             \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, result != NULL, n, incx, 1, x, NULL); \
        RED_QUEUE(SYM, NAME, T, R, n, incx, 1, x, NULL, result)                                   \
    }
#define IAMAX_FN(SYM, NAME, IT, T, cb)                                                                   \
    RED_ARGS(SYM, T, IT)                                                                               \
    static void SYM##_run(void *p)                                                                     \
    {                                                                                                  \
        SYM##_args *a = p;                                                                             \
        *a->result = a->n > 0 && a->incx > 0 ? (IT)cblas_i##cb##amax(a->n, a->x, a->incx) + 1 : 0;     \
    }                                                                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, IT *result)                    \
    {                                                                                                    \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, result != NULL, n, incx, 1, x, NULL);       \
        RED_QUEUE(SYM, NAME, T, IT, n, incx, 1, x, NULL, result)                                         \
    }
#define IAMIN_FN(SYM, NAME, IT, T, mag)                                                                  \
    RED_ARGS(SYM, T, IT)                                                                               \
    static void SYM##_run(void *p)                                                                     \
    {                                                                                                  \
        SYM##_args *a = p;                                                                             \
        IT best = 0;                                                                                   \
        for (IT i = 0; a->n > 0 && a->incx > 0 && i < a->n; i++)                                       \
            if (i == 0 || mag(a->x[i * a->incx]) < mag(a->x[best * a->incx]))                          \
                best = i;                                                                              \
        *a->result = a->n > 0 && a->incx > 0 ? best + 1 : 0;                                           \
    }                                                                                                  \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, const T *x, IT incx, IT *result)                    \
    {                                                                                                    \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, result != NULL, n, incx, 1, x, NULL);       \
        RED_QUEUE(SYM, NAME, T, IT, n, incx, 1, x, NULL, result)                                         \
    }
#define MAG_REAL(v) fabs((double)(v))
#define MAG_CPLX(v) (fabs((double)(v).x) + fabs((double)(v).y))

/* RP: the cuBLAS prefix of nrm2/asum (S, D, Sc, Dz), rcb: CBLAS's. */
#define REDUCE_TYPE(T, R, cb, RP, rcb, mag)                                                            \
    SIMCUBLAS_BOTH_WIDTHS(NORM_FN, cublas##RP##nrm2_v2, "cublas" #RP "nrm2", T, R, cblas_##rcb##nrm2) \
    SIMCUBLAS_BOTH_WIDTHS(NORM_FN, cublas##RP##asum_v2, "cublas" #RP "asum", T, R, cblas_##rcb##asum) \
    SIMCUBLAS_BOTH_WIDTHS(IAMAX_FN, cublasI##cb##amax_v2, "cublasI" #cb "amax", T, cb)                  \
    SIMCUBLAS_BOTH_WIDTHS(IAMIN_FN, cublasI##cb##amin_v2, "cublasI" #cb "amin", T, mag)

SIMCUBLAS_BOTH_WIDTHS(DOT_REAL_FN, cublasSdot_v2, "cublasSdot", float, s)
SIMCUBLAS_BOTH_WIDTHS(DOT_REAL_FN, cublasDdot_v2, "cublasDdot", double, d)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasCdotu_v2, "cublasCdotu", cuComplex, c, u)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasCdotc_v2, "cublasCdotc", cuComplex, c, c)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasZdotu_v2, "cublasZdotu", cuDoubleComplex, z, u)
SIMCUBLAS_BOTH_WIDTHS(DOT_CPLX_FN, cublasZdotc_v2, "cublasZdotc", cuDoubleComplex, z, c)
REDUCE_TYPE(float, float, s, S, s, MAG_REAL)
REDUCE_TYPE(double, double, d, D, d, MAG_REAL)
REDUCE_TYPE(cuComplex, float, c, Sc, sc, MAG_CPLX)
REDUCE_TYPE(cuDoubleComplex, double, z, Dz, dz, MAG_CPLX)
