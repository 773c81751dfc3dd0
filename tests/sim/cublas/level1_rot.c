/* Level-1 plane rotations: rot (real, and complex with a real or complex
 * sine), rotg, rotm, rotmg; reference CBLAS semantics (level1.h). The
 * complex rotation with a complex sine has no CBLAS routine and is
 * computed here: x' = c x + s y, y' = c y - conj(s) x.
 * Each runs as its stream's work (queue.h); rotg and rotmg, which update
 * scalars in place, are waited for in host pointer mode.
 * Trace: rot and rotm as the other Level-1 calls; rotg and rotmg work on
 * scalars: {"op":"cublasSrotg","a":..,"b":..}. */
#include "level1.h"

#include <complex.h>
#include <string.h>

#include "access.h"
#include "queue.h"

/* The argument record of a rotation of vectors of T by scalars C and S
 * (read now in host pointer mode). */
#define ROT_ARGS(SYM, T, C, S)     \
    typedef struct {               \
        int n, incx, incy;         \
        T *x, *y;                  \
        SIMCUBLAS_SCALAR(C) c;     \
        SIMCUBLAS_SCALAR(S) s;     \
    } SYM##_args;

/* Queues SYM's runner over x and y (both written). */
#define ROT_QUEUE(SYM, NAME, T, a)                                                                     \
    simcuda_span sp_[2] = {simcublas_vec_span((a).x, (a).n, (a).incx, sizeof(T), true),               \
                           simcublas_vec_span((a).y, (a).n, (a).incy, sizeof(T), true)};              \
    return simcublas_queue(handle, NAME, SYM##_run, &(a), sizeof(a), sp_, 2);

/* The entry point: checks, scalars read (host pointer mode) or kept
 * (device), then the runner queued. S is the sine's type. */
#define ROT_ENTRY(SYM, NAME, IT, T, R, S)                                                          \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, T *x, IT incx, T *y, IT incy, const R *c, const S *s) \
    {                                                                                                  \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, c && s, n, incx, incy, x, y);             \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                                  \
            return st;                                                                                 \
        SYM##_args a = {.n = (int)n, .incx = (int)incx, .incy = (int)incy, .x = x, .y = y};            \
        SIMCUBLAS_SCALAR_SET(handle, a.c, c);                                                          \
        SIMCUBLAS_SCALAR_SET(handle, a.s, s);                                                          \
        ROT_QUEUE(SYM, NAME, T, a)                                                                     \
    }

/* A rotation with real cosine and sine R of vectors of T. */
#define ROT_FN(SYM, NAME, IT, T, R, cb)                                                                    \
    ROT_ARGS(SYM, T, R, R)                                                                                 \
    static void SYM##_run(void *p)                                                                         \
    {                                                                                                      \
        SYM##_args *a = p;                                                                                 \
        cblas_##cb##rot(a->n, a->x, a->incx, a->y, a->incy, SIMCUBLAS_SCALAR_GET(a->c),                    \
                        SIMCUBLAS_SCALAR_GET(a->s));                                                       \
    }                                                                                                      \
    ROT_ENTRY(SYM, NAME, IT, T, R, R)
#define CROT_FN(SYM, NAME, IT, T, R, CT)                                                                      \
    ROT_ARGS(SYM, T, R, T)                                                                                    \
    static void SYM##_run(void *p)                                                                            \
    {                                                                                                         \
        SYM##_args *a = p;                                                                                    \
        R c = SIMCUBLAS_SCALAR_GET(a->c);                                                                     \
        T s = SIMCUBLAS_SCALAR_GET(a->s);                                                                     \
        CT sv = s.x + s.y * I;                                                                                \
        int n = a->n, incx = a->incx, incy = a->incy;                                                         \
        int ix = incx < 0 ? (n - 1) * -incx : 0, iy = incy < 0 ? (n - 1) * -incy : 0;                        \
        for (int i = 0; i < n; i++, ix += incx, iy += incy) {                                                 \
            CT xv = a->x[ix].x + a->x[ix].y * I, yv = a->y[iy].x + a->y[iy].y * I;                            \
            CT xn = c * xv + sv * yv, yn = c * yv - conj(sv) * xv;                                            \
            a->x[ix] = (T){creal(xn), cimag(xn)};                                                             \
            a->y[iy] = (T){creal(yn), cimag(yn)};                                                             \
        }                                                                                                     \
    }                                                                                                         \
    ROT_ENTRY(SYM, NAME, IT, T, R, T)

/* rotg and rotmg work on scalars where the pointers say, updated in place:
 * queued, and waited for in host pointer mode (queue.h). */
#define ROTG_FN(SYM, NAME, T, R, cb)                                                 \
    typedef struct {                                                                 \
        T *a, *b, *s;                                                                \
        R *c;                                                                        \
    } SYM##_args;                                                                    \
    static void SYM##_run(void *p)                                                   \
    {                                                                                \
        SYM##_args *g = p;                                                           \
        cblas_##cb##rotg(g->a, g->b, g->c, g->s);                                    \
    }                                                                                \
    cublasStatus_t SYM(cublasHandle_t handle, T *a, T *b, R *c, T *s)                \
    {                                                                                \
        const char *name = simcublas_l1_name(NAME);                                  \
        if (!simcublas_handle_ok(handle))                                            \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                    \
        if (!a || !b || !c || !s)                                                    \
            return CUBLAS_STATUS_INVALID_VALUE;                                      \
        simcublas_announce(handle, (const void *[]){a, b, c, s}, 4);                 \
        sim_trace(name, "\"a\":%llu,\"b\":%llu", SIMCUBLAS_PTR(a), SIMCUBLAS_PTR(b)); \
        if (sim_noop())                                                              \
            return CUBLAS_STATUS_SUCCESS;                                            \
        SYM##_args g = {a, b, s, c};                                                 \
        simcuda_span sp[4] = {simcublas_result_span(handle, a, sizeof *a),           \
                              simcublas_result_span(handle, b, sizeof *b),           \
                              simcublas_result_span(handle, c, sizeof *c),           \
                              simcublas_result_span(handle, s, sizeof *s)};          \
        return simcublas_queue_result(handle, name, SYM##_run, &g, sizeof g, sp, 4); \
    }
#define ROTM_FN(SYM, NAME, IT, T, cb)                                                                     \
    typedef struct {                                                                                      \
        int n, incx, incy;                                                                                \
        T *x, *y;                                                                                         \
        T param[5];                                                                                       \
        const T *dev;                                                                                     \
    } SYM##_args;                                                                                         \
    static void SYM##_run(void *p)                                                                        \
    {                                                                                                     \
        SYM##_args *a = p;                                                                                \
        cblas_##cb##rotm(a->n, a->x, a->incx, a->y, a->incy, a->dev ? a->dev : a->param);                 \
    }                                                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, IT n, T *x, IT incx, T *y, IT incy, const T *param)        \
    {                                                                                                     \
        cublasStatus_t st = simcublas_l1_start(handle, NAME, param != NULL, n, incx, incy, x, y);         \
        if (!SIMCUBLAS_L1_RUN(st, n))                                                                     \
            return st;                                                                                    \
        SYM##_args a = {.n = (int)n, .incx = (int)incx, .incy = (int)incy, .x = x, .y = y};               \
        if (handle->pointer_mode == CUBLAS_POINTER_MODE_HOST)                                             \
            memcpy(a.param, param, sizeof a.param); /* flag and H, read now */                            \
        else                                                                                              \
            a.dev = param;                                                                                \
        ROT_QUEUE(SYM, NAME, T, a)                                                                        \
    }
#define ROTMG_FN(SYM, NAME, T, cb)                                                                 \
    typedef struct {                                                                               \
        T *d1, *d2, *x1, *param;                                                                   \
        const T *y1;                                                                               \
    } SYM##_args;                                                                                  \
    static void SYM##_run(void *p)                                                                 \
    {                                                                                              \
        SYM##_args *g = p;                                                                         \
        cblas_##cb##rotmg(g->d1, g->d2, g->x1, *g->y1, g->param);                                  \
    }                                                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, T *d1, T *d2, T *x1, const T *y1, T *param)          \
    {                                                                                              \
        const char *name = simcublas_l1_name(NAME);                                                \
        if (!simcublas_handle_ok(handle))                                                          \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                                  \
        if (!d1 || !d2 || !x1 || !y1 || !param)                                                    \
            return CUBLAS_STATUS_INVALID_VALUE;                                                    \
        simcublas_announce(handle, (const void *[]){d1, d2, x1, y1, param}, 5);                    \
        sim_trace(name, "\"a\":%llu,\"b\":%llu", SIMCUBLAS_PTR(x1), SIMCUBLAS_PTR(y1));           \
        if (sim_noop())                                                                            \
            return CUBLAS_STATUS_SUCCESS;                                                          \
        SYM##_args g = {d1, d2, x1, param, y1};                                                    \
        simcuda_span sp[5] = {simcublas_result_span(handle, d1, sizeof *d1),                       \
                              simcublas_result_span(handle, d2, sizeof *d2),                       \
                              simcublas_result_span(handle, x1, sizeof *x1),                       \
                              simcublas_result_span(handle, y1, sizeof *y1),                       \
                              simcublas_result_span(handle, param, 5 * sizeof *param)};            \
        sp[3].write = 0; /* y1 is only read */                                                     \
        return simcublas_queue_result(handle, name, SYM##_run, &g, sizeof g, sp, 5);               \
    }

SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasSrot_v2, "cublasSrot", float, float, s)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasDrot_v2, "cublasDrot", double, double, d)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasCsrot_v2, "cublasCsrot", cuComplex, float, cs)
SIMCUBLAS_BOTH_WIDTHS(ROT_FN, cublasZdrot_v2, "cublasZdrot", cuDoubleComplex, double, zd)
SIMCUBLAS_BOTH_WIDTHS(CROT_FN, cublasCrot_v2, "cublasCrot", cuComplex, float, float complex)
SIMCUBLAS_BOTH_WIDTHS(CROT_FN, cublasZrot_v2, "cublasZrot", cuDoubleComplex, double, double complex)
ROTG_FN(cublasSrotg_v2, "cublasSrotg", float, float, s)
ROTG_FN(cublasDrotg_v2, "cublasDrotg", double, double, d)
ROTG_FN(cublasCrotg_v2, "cublasCrotg", cuComplex, float, c)
ROTG_FN(cublasZrotg_v2, "cublasZrotg", cuDoubleComplex, double, z)
SIMCUBLAS_BOTH_WIDTHS(ROTM_FN, cublasSrotm_v2, "cublasSrotm", float, s)
SIMCUBLAS_BOTH_WIDTHS(ROTM_FN, cublasDrotm_v2, "cublasDrotm", double, d)
ROTMG_FN(cublasSrotmg_v2, "cublasSrotmg", float, s)
ROTMG_FN(cublasDrotmg_v2, "cublasDrotmg", double, d)
