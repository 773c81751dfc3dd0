/* The Level-1 *Ex entry points with the data types of the typed routines
 * (float, double, complex float, complex double, each with its own
 * execution type; nrm2/asum results and rotation cosine/sine in the real
 * type): each runs as that typed routine, traced under its own name
 * (cublasAxpyEx, ...). Half and bfloat16 data are not computed:
 * CUBLAS_STATUS_NOT_SUPPORTED. The 32-bit forms run the 64-bit ones. */
#include "level1.h"

/* 0..3 for S, D, C, Z; -1 for a type the stand-in does not compute. */
static int kind(cudaDataType t)
{
    return t == CUDA_R_32F ? 0 : t == CUDA_R_64F ? 1 : t == CUDA_C_32F ? 2 : t == CUDA_C_64F ? 3 : -1;
}
static cudaDataType real_of(cudaDataType t)
{
    return t == CUDA_C_32F ? CUDA_R_32F : t == CUDA_C_64F ? CUDA_R_64F : t;
}
#define BY_KIND(k, S, D, C, Z) ((k) == 0 ? (S) : (k) == 1 ? (D) : (k) == 2 ? (C) : (Z))

/* NOT_INITIALIZED, NOT_SUPPORTED unless ok, else the typed routine's trace
 * line takes `name`. */
#define EX_BEGIN(h, name, ok)                        \
    do {                                             \
        if (!simcublas_handle_ok(h))                 \
            return CUBLAS_STATUS_NOT_INITIALIZED;    \
        if (!(ok))                                   \
            return CUBLAS_STATUS_NOT_SUPPORTED;      \
        simcublas_l1_trace_as(name);                 \
    } while (0)

static cublasStatus_t axpy_ex(cublasHandle_t h, const char *name, int64_t n, const void *alpha, cudaDataType at,
                              const void *x, cudaDataType xt, int64_t incx, void *y, cudaDataType yt, int64_t incy,
                              cudaDataType exec)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0 && at == xt && yt == xt && exec == xt);
    return BY_KIND(k, cublasSaxpy_v2_64(h, n, alpha, x, incx, y, incy), cublasDaxpy_v2_64(h, n, alpha, x, incx, y, incy),
                   cublasCaxpy_v2_64(h, n, alpha, x, incx, y, incy), cublasZaxpy_v2_64(h, n, alpha, x, incx, y, incy));
}

/* alpha of x's type, or real for complex x (Csscal, Zdscal). */
static cublasStatus_t scal_ex(cublasHandle_t h, const char *name, int64_t n, const void *alpha, cudaDataType at,
                              void *x, cudaDataType xt, int64_t incx, cudaDataType exec)
{
    int k = kind(xt);
    bool real_alpha = k >= 2 && at == real_of(xt);
    EX_BEGIN(h, name, k >= 0 && exec == xt && (at == xt || real_alpha));
    if (real_alpha)
        return k == 2 ? cublasCsscal_v2_64(h, n, alpha, x, incx) : cublasZdscal_v2_64(h, n, alpha, x, incx);
    return BY_KIND(k, cublasSscal_v2_64(h, n, alpha, x, incx), cublasDscal_v2_64(h, n, alpha, x, incx),
                   cublasCscal_v2_64(h, n, alpha, x, incx), cublasZscal_v2_64(h, n, alpha, x, incx));
}

static cublasStatus_t copy_ex(cublasHandle_t h, const char *name, bool swap, int64_t n, void *x, cudaDataType xt,
                              int64_t incx, void *y, cudaDataType yt, int64_t incy)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0 && yt == xt);
    if (swap)
        return BY_KIND(k, cublasSswap_v2_64(h, n, x, incx, y, incy), cublasDswap_v2_64(h, n, x, incx, y, incy),
                       cublasCswap_v2_64(h, n, x, incx, y, incy), cublasZswap_v2_64(h, n, x, incx, y, incy));
    return BY_KIND(k, cublasScopy_v2_64(h, n, x, incx, y, incy), cublasDcopy_v2_64(h, n, x, incx, y, incy),
                   cublasCcopy_v2_64(h, n, x, incx, y, incy), cublasZcopy_v2_64(h, n, x, incx, y, incy));
}

/* conj: dotc (for real data the same as dot). */
static cublasStatus_t dot_ex(cublasHandle_t h, const char *name, bool conj, int64_t n, const void *x,
                             cudaDataType xt, int64_t incx, const void *y, cudaDataType yt, int64_t incy, void *r,
                             cudaDataType rt, cudaDataType exec)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0 && yt == xt && rt == xt && exec == xt);
    if (conj && k >= 2)
        return k == 2 ? cublasCdotc_v2_64(h, n, x, incx, y, incy, r) : cublasZdotc_v2_64(h, n, x, incx, y, incy, r);
    return BY_KIND(k, cublasSdot_v2_64(h, n, x, incx, y, incy, r), cublasDdot_v2_64(h, n, x, incx, y, incy, r),
                   cublasCdotu_v2_64(h, n, x, incx, y, incy, r), cublasZdotu_v2_64(h, n, x, incx, y, incy, r));
}

/* asum: nrm2 otherwise; the result in x's real type. */
static cublasStatus_t norm_ex(cublasHandle_t h, const char *name, bool asum, int64_t n, const void *x,
                              cudaDataType xt, int64_t incx, void *r, cudaDataType rt, cudaDataType exec)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0 && rt == real_of(xt) && exec == rt);
    if (asum)
        return BY_KIND(k, cublasSasum_v2_64(h, n, x, incx, r), cublasDasum_v2_64(h, n, x, incx, r),
                       cublasScasum_v2_64(h, n, x, incx, r), cublasDzasum_v2_64(h, n, x, incx, r));
    return BY_KIND(k, cublasSnrm2_v2_64(h, n, x, incx, r), cublasDnrm2_v2_64(h, n, x, incx, r),
                   cublasScnrm2_v2_64(h, n, x, incx, r), cublasDznrm2_v2_64(h, n, x, incx, r));
}

static cublasStatus_t iamax_ex(cublasHandle_t h, const char *name, bool min, int64_t n, const void *x,
                               cudaDataType xt, int64_t incx, int64_t *r)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0);
    if (min)
        return BY_KIND(k, cublasIsamin_v2_64(h, n, x, incx, r), cublasIdamin_v2_64(h, n, x, incx, r),
                       cublasIcamin_v2_64(h, n, x, incx, r), cublasIzamin_v2_64(h, n, x, incx, r));
    return BY_KIND(k, cublasIsamax_v2_64(h, n, x, incx, r), cublasIdamax_v2_64(h, n, x, incx, r),
                   cublasIcamax_v2_64(h, n, x, incx, r), cublasIzamax_v2_64(h, n, x, incx, r));
}

/* Real cosine and sine (rot, Csrot, Zdrot). */
static cublasStatus_t rot_ex(cublasHandle_t h, const char *name, int64_t n, void *x, cudaDataType xt, int64_t incx,
                             void *y, cudaDataType yt, int64_t incy, const void *c, const void *s, cudaDataType cst,
                             cudaDataType exec)
{
    int k = kind(xt);
    EX_BEGIN(h, name, k >= 0 && yt == xt && cst == real_of(xt) && (exec == xt || exec == cst));
    return BY_KIND(k, cublasSrot_v2_64(h, n, x, incx, y, incy, c, s), cublasDrot_v2_64(h, n, x, incx, y, incy, c, s),
                   cublasCsrot_v2_64(h, n, x, incx, y, incy, c, s), cublasZdrot_v2_64(h, n, x, incx, y, incy, c, s));
}

static cublasStatus_t rotm_ex(cublasHandle_t h, const char *name, int64_t n, void *x, cudaDataType xt, int64_t incx,
                              void *y, cudaDataType yt, int64_t incy, const void *param, cudaDataType pt,
                              cudaDataType exec)
{
    int k = kind(xt);
    EX_BEGIN(h, name, (k == 0 || k == 1) && yt == xt && pt == xt && exec == xt);
    return k == 0 ? cublasSrotm_v2_64(h, n, x, incx, y, incy, param) : cublasDrotm_v2_64(h, n, x, incx, y, incy, param);
}

#define AXPY_EX(SYM, NAME, IT, ...)                                                                                  \
    cublasStatus_t SYM(cublasHandle_t h, IT n, const void *alpha, cudaDataType at, const void *x, cudaDataType xt, \
                       IT incx, void *y, cudaDataType yt, IT incy, cudaDataType exec)                            \
    {                                                                                                            \
        return axpy_ex(h, NAME, n, alpha, at, x, xt, incx, y, yt, incy, exec);                                   \
    }
#define SCAL_EX(SYM, NAME, IT, ...)                                                                                  \
    cublasStatus_t SYM(cublasHandle_t h, IT n, const void *alpha, cudaDataType at, void *x, cudaDataType xt,      \
                       IT incx, cudaDataType exec)                                                               \
    {                                                                                                            \
        return scal_ex(h, NAME, n, alpha, at, x, xt, incx, exec);                                                \
    }
#define COPY_EX(SYM, NAME, IT, swap, CONST)                                                                      \
    cublasStatus_t SYM(cublasHandle_t h, IT n, CONST void *x, cudaDataType xt, IT incx, void *y, cudaDataType yt, \
                       IT incy)                                                                                  \
    {                                                                                                            \
        return copy_ex(h, NAME, swap, n, (void *)x, xt, incx, y, yt, incy);                                      \
    }
#define DOT_EX(SYM, NAME, IT, conj)                                                                              \
    cublasStatus_t SYM(cublasHandle_t h, IT n, const void *x, cudaDataType xt, IT incx, const void *y,          \
                       cudaDataType yt, IT incy, void *r, cudaDataType rt, cudaDataType exec)                    \
    {                                                                                                            \
        return dot_ex(h, NAME, conj, n, x, xt, incx, y, yt, incy, r, rt, exec);                                  \
    }
#define NORM_EX(SYM, NAME, IT, asum)                                                                             \
    cublasStatus_t SYM(cublasHandle_t h, IT n, const void *x, cudaDataType xt, IT incx, void *r, cudaDataType rt, \
                       cudaDataType exec)                                                                        \
    {                                                                                                            \
        return norm_ex(h, NAME, asum, n, x, xt, incx, r, rt, exec);                                              \
    }
#define IAMAX_EX(SYM, NAME, IT, min)                                                                \
    cublasStatus_t SYM(cublasHandle_t h, IT n, const void *x, cudaDataType xt, IT incx, IT *result) \
    {                                                                                               \
        int64_t r = 0;                                                                              \
        cublasStatus_t st = iamax_ex(h, NAME, min, n, x, xt, incx, result ? &r : NULL);             \
        if (st == CUBLAS_STATUS_SUCCESS && !sim_noop())                                             \
            *result = (IT)r;                                                                        \
        return st;                                                                                  \
    }
#define ROT_EX(SYM, NAME, IT, ...)                                                                                 \
    cublasStatus_t SYM(cublasHandle_t h, IT n, void *x, cudaDataType xt, IT incx, void *y, cudaDataType yt,     \
                       IT incy, const void *c, const void *s, cudaDataType cst, cudaDataType exec)             \
    {                                                                                                          \
        return rot_ex(h, NAME, n, x, xt, incx, y, yt, incy, c, s, cst, exec);                                  \
    }
#define ROTM_EX(SYM, NAME, IT, ...)                                                                                \
    cublasStatus_t SYM(cublasHandle_t h, IT n, void *x, cudaDataType xt, IT incx, void *y, cudaDataType yt,     \
                       IT incy, const void *param, cudaDataType pt, cudaDataType exec)                         \
    {                                                                                                          \
        return rotm_ex(h, NAME, n, x, xt, incx, y, yt, incy, param, pt, exec);                                 \
    }

SIMCUBLAS_BOTH_WIDTHS(AXPY_EX, cublasAxpyEx, "cublasAxpyEx")
SIMCUBLAS_BOTH_WIDTHS(SCAL_EX, cublasScalEx, "cublasScalEx")
SIMCUBLAS_BOTH_WIDTHS(COPY_EX, cublasCopyEx, "cublasCopyEx", false, const)
SIMCUBLAS_BOTH_WIDTHS(COPY_EX, cublasSwapEx, "cublasSwapEx", true, )
SIMCUBLAS_BOTH_WIDTHS(DOT_EX, cublasDotEx, "cublasDotEx", false)
SIMCUBLAS_BOTH_WIDTHS(DOT_EX, cublasDotcEx, "cublasDotcEx", true)
SIMCUBLAS_BOTH_WIDTHS(NORM_EX, cublasNrm2Ex, "cublasNrm2Ex", false)
SIMCUBLAS_BOTH_WIDTHS(NORM_EX, cublasAsumEx, "cublasAsumEx", true)
SIMCUBLAS_BOTH_WIDTHS(IAMAX_EX, cublasIamaxEx, "cublasIamaxEx", false)
SIMCUBLAS_BOTH_WIDTHS(IAMAX_EX, cublasIaminEx, "cublasIaminEx", true)
SIMCUBLAS_BOTH_WIDTHS(ROT_EX, cublasRotEx, "cublasRotEx")
SIMCUBLAS_BOTH_WIDTHS(ROTM_EX, cublasRotmEx, "cublasRotmEx")

/* The scalar generators: real types only. */
cublasStatus_t cublasRotgEx(cublasHandle_t h, void *a, void *b, cudaDataType abt, void *c, void *s, cudaDataType cst,
                            cudaDataType exec)
{
    int k = kind(abt);
    EX_BEGIN(h, "cublasRotgEx", (k == 0 || k == 1) && cst == abt && exec == abt);
    return k == 0 ? cublasSrotg_v2(h, a, b, c, s) : cublasDrotg_v2(h, a, b, c, s);
}

cublasStatus_t cublasRotmgEx(cublasHandle_t h, void *d1, cudaDataType d1t, void *d2, cudaDataType d2t, void *x1,
                             cudaDataType x1t, const void *y1, cudaDataType y1t, void *param, cudaDataType pt,
                             cudaDataType exec)
{
    int k = kind(d1t);
    bool same = d2t == d1t && x1t == d1t && y1t == d1t && pt == d1t && exec == d1t;
    EX_BEGIN(h, "cublasRotmgEx", (k == 0 || k == 1) && same);
    return k == 0 ? cublasSrotmg_v2(h, d1, d2, x1, y1, param) : cublasDrotmg_v2(h, d1, d2, x1, y1, param);
}
