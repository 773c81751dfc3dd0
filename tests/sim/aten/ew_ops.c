/* What each elementwise op computes, written once over its compute class
 * (float and double from one body via <tgmath.h>, int64 separately), the
 * way ATen's functors and lambdas do: constants in the compute type,
 * "scalar_t arithmetic" rounded to scalar_t between steps (R), libm for
 * the functions. */
#include "ew.h"

#include <tgmath.h>

static inline float ew_round(const ew_env *e, float v)
{
    switch (e->scalar) {
    case ATEN_HALF: return aten_half_to_float(aten_float_to_half(v));
    case ATEN_BFLOAT16: return aten_bf16_to_float(aten_float_to_bf16(v));
    default: return v;
    }
}
/* A step computed in scalar_t: rounds to half or bfloat16 when that is
 * the op's type (float and double are their own compute types). */
#define R(v) _Generic((v), float: ew_round(e, (float)(v)), default: (v))

#define EW_FP(name, ...)                                                                 \
    static float name##_f(const ew_env *e, const float *x, const float *c)              \
    {                                                                                    \
        typedef float T __attribute__((unused));    \
        (void)e, (void)x, (void)c;                                                       \
        __VA_ARGS__                                                                      \
    }                                                                                    \
    static double name##_d(const ew_env *e, const double *x, const double *c)           \
    {                                                                                    \
        typedef double T __attribute__((unused));   \
        (void)e, (void)x, (void)c;                                                       \
        __VA_ARGS__                                                                      \
    }
#define EW_INT(name, ...)                                                                \
    static int64_t name##_i(const ew_env *e, const int64_t *x, const int64_t *c)        \
    {                                                                                    \
        (void)e, (void)x, (void)c;                                                       \
        __VA_ARGS__                                                                      \
    }
/* Integer arithmetic wraps, as the GPU's does. */
#define U(v) ((uint64_t)(v))
#define W(v) ((int64_t)(v))

/* Arguments are expanded first, so FP(n) gives two functions. */
#define DEF(...) DEF_(__VA_ARGS__)
#define DEF0(...) DEF0_(__VA_ARGS__)
#define DEF_(sym, ar, fn_f, fn_d, fn_i, ...) \
    const ew_def sym = {#sym, ar, {__VA_ARGS__}, sizeof((ew_cap[]){__VA_ARGS__}) / sizeof(ew_cap), fn_f, fn_d, fn_i, NULL}
#define DEF0_(sym, ar, fn_f, fn_d, fn_i) const ew_def sym = {#sym, ar, {0}, 0, fn_f, fn_d, fn_i, NULL}
#define FP(n) n##_f, n##_d
#define FPI(n) n##_f, n##_d, n##_i

/* ---- byte movers ---- */

static void copy_raw(const ew_inst *in, const unsigned char *fb, void *out, const void *const *x)
{
    (void)fb;
    memcpy(out, x[0], aten_dtype_size(in->res));
}
static void convert_raw(const ew_inst *in, const unsigned char *fb, void *out, const void *const *x)
{
    (void)fb;
    aten_convert(in->res, out, in->arg[0], x[0]);
}
static void fill_raw(const ew_inst *in, const unsigned char *fb, void *out, const void *const *x)
{
    (void)x;
    aten_convert(in->res, out, in->cap_type[0], fb + in->cap_off[0]);
}
static void where_raw(const ew_inst *in, const unsigned char *fb, void *out, const void *const *x)
{
    (void)fb;
    bool cond = aten_load(in->arg[0], x[0]).i != 0;
    memcpy(out, cond ? x[1] : x[2], aten_dtype_size(in->res));
}
const ew_def ew_copy = {"copy", 1, {0}, 0, NULL, NULL, NULL, copy_raw};
const ew_def ew_convert = {"convert", 1, {0}, 0, NULL, NULL, NULL, convert_raw};
const ew_def ew_fill = {"fill", 0, {CAP_SCALAR}, 1, NULL, NULL, NULL, fill_raw};
const ew_def ew_where = {"where", 3, {0}, 0, NULL, NULL, NULL, where_raw};

/* ---- arithmetic ---- */

EW_FP(add_alpha, return x[0] + c[0] * x[1];)
EW_INT(add_alpha, return W(U(x[0]) + U(c[0]) * U(x[1]));)
DEF(ew_add_alpha, 2, FPI(add_alpha), CAP_OPMATH);

/* CUDAFunctorOnSelf_add: self + alpha * other, both scalars captured. */
EW_FP(add_self, return x[0] + c[1] * c[0];)
EW_INT(add_self, return W(U(x[0]) + U(c[1]) * U(c[0]));)
DEF(ew_add_self, 1, FPI(add_self), CAP_OPMATH, CAP_OPMATH);

/* CUDAFunctorOnOther_add: other + alpha * self (a scalar minus a tensor). */
EW_FP(add_other, return c[0] + c[1] * x[0];)
EW_INT(add_other, return W(U(c[0]) + U(c[1]) * U(x[0]));)
DEF(ew_add_other, 1, FPI(add_other), CAP_OPMATH, CAP_OPMATH);

EW_FP(sub, return x[0] - x[1];)
EW_INT(sub, return W(U(x[0]) - U(x[1]));)
DEF0(ew_sub, 2, FPI(sub));

EW_FP(mul, return x[0] * x[1];)
EW_INT(mul, return W(U(x[0]) * U(x[1]));)
DEF0(ew_mul, 2, FPI(mul));

EW_FP(div, return x[0] / x[1];)
DEF0(ew_div, 2, FP(div), NULL);

EW_FP(neg, return -x[0];)
EW_INT(neg, return W(0 - U(x[0]));)
DEF0(ew_neg, 1, FPI(neg));

EW_FP(abs, return fabs(x[0]);)
EW_INT(abs, return x[0] < 0 ? W(0 - U(x[0])) : x[0];)
DEF0(ew_abs, 1, FPI(abs));

EW_FP(sign, return (T)((0 < x[0]) - (x[0] < 0));)
EW_INT(sign, return (0 < x[0]) - (x[0] < 0);)
DEF0(ew_sign, 1, FPI(sign));

EW_FP(reciprocal, return (T)1 / x[0];)
DEF0(ew_reciprocal, 1, FP(reciprocal), NULL);

/* pow by a scalar: 2, 3 and -2 have their own lambdas (scalar_t steps). */
EW_FP(square, return x[0] * x[0];)
EW_INT(square, return W(U(x[0]) * U(x[0]));)
DEF0(ew_square, 1, FPI(square));
EW_FP(cube, return R(x[0] * x[0]) * x[0];)
EW_INT(cube, return W(U(x[0]) * U(x[0]) * U(x[0]));)
DEF0(ew_cube, 1, FPI(cube));
EW_FP(inv_square, return (T)1 / R(x[0] * x[0]);)
DEF0(ew_inv_square, 1, FP(inv_square), NULL);
EW_FP(pow_scalar, return pow(x[0], c[0]);)
DEF(ew_pow_scalar, 1, FP(pow_scalar), NULL, CAP_SCALAR);

EW_FP(exp, return exp(x[0]);)
DEF0(ew_exp, 1, FP(exp), NULL);
EW_FP(log, return log(x[0]);)
DEF0(ew_log, 1, FP(log), NULL);
EW_FP(tanh, return tanh(x[0]);)
DEF0(ew_tanh, 1, FP(tanh), NULL);
EW_FP(sigmoid, return (T)1 / ((T)1 + exp(-x[0]));)
DEF0(ew_sigmoid, 1, FP(sigmoid), NULL);
EW_FP(sqrt, return sqrt(x[0]);)
DEF0(ew_sqrt, 1, FP(sqrt), NULL);
EW_FP(rsqrt, return (T)1 / sqrt(x[0]);)
DEF0(ew_rsqrt, 1, FP(rsqrt), NULL);
EW_FP(silu, return x[0] / ((T)1 + exp(-x[0]));)
DEF0(ew_silu, 1, FP(silu), NULL);

/* ---- comparisons: OpType {GE, GT, LE, LT}, EqOpType {EQ, NE} ---- */

#define COMPARE(a, b)                                                                    \
    switch (e->mode) {                                                                   \
    case 0: return (a) >= (b);                                                           \
    case 1: return (a) > (b);                                                            \
    case 2: return (a) <= (b);                                                           \
    default: return (a) < (b);                                                           \
    }
EW_FP(compare, COMPARE(x[0], x[1]))
EW_INT(compare, COMPARE(x[0], x[1]))
DEF(ew_compare, 2, FPI(compare), CAP_MODE);
EW_FP(compare_scalar, COMPARE(x[0], c[1]))
EW_INT(compare_scalar, COMPARE(x[0], c[1]))
DEF(ew_compare_scalar, 1, FPI(compare_scalar), CAP_MODE, CAP_SCALAR);
EW_FP(compare_eq, return e->mode == 0 ? x[0] == x[1] : x[0] != x[1];)
EW_INT(compare_eq, return e->mode == 0 ? x[0] == x[1] : x[0] != x[1];)
DEF(ew_compare_eq, 2, FPI(compare_eq), CAP_MODE);

/* ---- selections: NaN propagates ---- */

EW_FP(maximum, if (x[0] != x[0]) return x[0]; if (x[1] != x[1]) return x[1]; return x[0] > x[1] ? x[0] : x[1];)
EW_INT(maximum, return x[0] > x[1] ? x[0] : x[1];)
DEF0(ew_maximum, 2, FPI(maximum));
EW_FP(minimum, if (x[0] != x[0]) return x[0]; if (x[1] != x[1]) return x[1]; return x[0] < x[1] ? x[0] : x[1];)
EW_INT(minimum, return x[0] < x[1] ? x[0] : x[1];)
DEF0(ew_minimum, 2, FPI(minimum));

/* threshold(x, other): x <= threshold ? value : other (relu and its backward). */
EW_FP(threshold, return x[0] <= c[0] ? c[1] : x[1];)
EW_INT(threshold, return x[0] <= c[0] ? c[1] : x[1];)
DEF(ew_threshold, 2, FPI(threshold), CAP_SCALAR, CAP_SCALAR);

/* clamp(v, lo, hi) with tensor limits: a NaN anywhere wins. */
EW_FP(clamp, if (x[0] != x[0]) return x[0]; if (x[1] != x[1]) return x[1]; if (x[2] != x[2]) return x[2];
      T v = x[0] < x[1] ? x[1] : x[0]; return v > x[2] ? x[2] : v;)
EW_INT(clamp, int64_t v = x[0] < x[1] ? x[1] : x[0]; return v > x[2] ? x[2] : v;)
DEF0(ew_clamp, 3, FPI(clamp));

/* clamp by scalars: ClampLimits {Min, Max, MinMax}. */
#define CLAMP_SCALAR(T)                                                                  \
    T v = x[0];                                                                          \
    if (e->mode == 0) return v < c[1] ? c[1] : v;                                        \
    if (e->mode == 1) return v > c[1] ? c[1] : v;                                        \
    v = v < c[1] ? c[1] : v;                                                             \
    return v > c[2] ? c[2] : v;
EW_FP(clamp_scalar, if (x[0] != x[0]) return x[0]; CLAMP_SCALAR(T))
EW_INT(clamp_scalar, CLAMP_SCALAR(int64_t))
DEF(ew_clamp_scalar, 1, FPI(clamp_scalar), CAP_MODE, CAP_OPMATH, CAP_OPMATH);

/* ---- activations (ActivationGeluKernel.cu); arguments (dy, x) for backward ---- */

EW_FP(gelu, return x[0] * (T)0.5 * ((T)1 + erf(x[0] * (T)M_SQRT1_2));)
DEF0(ew_gelu, 1, FP(gelu), NULL);

EW_FP(gelu_tanh, const T beta = (T)(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = (T)0.044715;
      T cube = x[0] * x[0] * x[0];
      T inner = beta * (x[0] + kappa * cube);
      return (T)0.5 * x[0] * ((T)1 + tanh(inner));)
DEF0(ew_gelu_tanh, 1, FP(gelu_tanh), NULL);

EW_FP(gelu_bw, const T beta = (T)(M_2_SQRTPI * M_SQRT1_2 * 0.5), alpha = (T)M_SQRT1_2;
      T cdf = (T)0.5 * ((T)1 + erf(x[1] * alpha));
      T pdf = exp((T)-0.5 * x[1] * x[1]) * beta;
      return x[0] * (cdf + x[1] * pdf);)
DEF0(ew_gelu_bw, 2, FP(gelu_bw), NULL);

EW_FP(gelu_tanh_bw, const T beta = (T)(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = (T)0.044715;
      T sq = x[1] * x[1], cube = sq * x[1];
      T inner = beta * (x[1] + kappa * cube), t = tanh(inner);
      T left = (T)0.5 * x[1], right = (T)1 + t;
      T left_d = (T)0.5 * right;
      T tanh_d = (T)1 - t * t;
      T inner_d = beta * ((T)1 + (T)3 * kappa * sq);
      T right_d = left * tanh_d * inner_d;
      return x[0] * (left_d + right_d);)
DEF0(ew_gelu_tanh_bw, 2, FP(gelu_tanh_bw), NULL);

/* ---- losses and optimizer steps (PointwiseOpsKernel.cu, Lerp.cu) ---- */

/* mse: (a - b)^2 in scalar_t. */
EW_FP(mse, T d = R(x[0] - x[1]); return d * d;)
DEF0(ew_mse, 2, FP(mse), NULL);
/* mse backward: alpha * (a - b) * c in scalar_t, alpha a scalar_t. */
EW_FP(mse_bw, T d = R(x[0] - x[1]); return R(c[0] * d) * x[2];)
DEF(ew_mse_bw, 3, FP(mse_bw), NULL, CAP_SCALAR);

EW_FP(addcmul, return x[0] + c[0] * (x[1] * x[2]);)
EW_INT(addcmul, return W(U(x[0]) + U(c[0]) * (U(x[1]) * U(x[2])));)
DEF(ew_addcmul, 3, FPI(addcmul), CAP_ACC);
EW_FP(addcdiv, return x[0] + c[0] * (x[1] / x[2]);)
DEF(ew_addcdiv, 3, FP(addcdiv), NULL, CAP_ACC);

#define LERP(w) return fabs(w) < (T)0.5 ? x[0] + (w) * (x[1] - x[0]) : x[1] - (x[1] - x[0]) * ((T)1 - (w));
EW_FP(lerp_scalar, LERP(c[0]))
DEF(ew_lerp_scalar, 2, FP(lerp_scalar), NULL, CAP_OPMATH);
EW_FP(lerp_tensor, LERP(x[2]))
DEF0(ew_lerp_tensor, 3, FP(lerp_tensor), NULL);
