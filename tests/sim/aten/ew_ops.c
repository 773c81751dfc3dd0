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
/* dropout's backward (Dropout.cu): (float)mask * src * scale, scale in acc_type */
EW_FP(masked_scale, return x[1] * x[0] * c[0];)
DEF(ew_masked_scale, 2, FP(masked_scale), NULL, CAP_ACC);
EW_FP(lerp_tensor, LERP(x[2]))
DEF0(ew_lerp_tensor, 3, FP(lerp_tensor), NULL);

/* ---- more pointwise ops (UnaryOpsKernel.cu and friends) ---- */

EW_FP(erf, return erf(x[0]);)
DEF0(ew_erf, 1, FP(erf), NULL);
EW_FP(cos, return cos(x[0]);)
DEF0(ew_cos, 1, FP(cos), NULL);
EW_FP(sin, return sin(x[0]);)
DEF0(ew_sin, 1, FP(sin), NULL);
EW_FP(floor, return floor(x[0]);)
DEF0(ew_floor, 1, FP(floor), NULL);
/* round: half to even (nearbyint in the default rounding mode). */
EW_FP(round, return nearbyint(x[0]);)
DEF0(ew_round_op, 1, FP(round), NULL);
EW_FP(log1p, return log1p(x[0]);)
DEF0(ew_log1p, 1, FP(log1p), NULL);
EW_FP(expm1, return expm1(x[0]);)
DEF0(ew_expm1, 1, FP(expm1), NULL);
EW_FP(exp2, return exp2(x[0]);)
DEF0(ew_exp2, 1, FP(exp2), NULL);
EW_FP(log2, return log2(x[0]);)
DEF0(ew_log2, 1, FP(log2), NULL);
EW_FP(pow_tensor, return pow(x[0], x[1]);)
DEF0(ew_pow_tensor, 2, FP(pow_tensor), NULL);

/* Backward of tanh and sigmoid from their outputs: (grad, y). */
EW_FP(tanh_bw, return x[0] * ((T)1 - x[1] * x[1]);)
DEF0(ew_tanh_bw, 2, FP(tanh_bw), NULL);
EW_FP(sigmoid_bw, return x[0] * ((T)1 - x[1]) * x[1];)
DEF0(ew_sigmoid_bw, 2, FP(sigmoid_bw), NULL);
/* silu backward (grad, x). */
EW_FP(silu_bw, T s = (T)1 / ((T)1 + exp(-x[1])); return x[0] * s * ((T)1 + x[1] * ((T)1 - s));)
DEF0(ew_silu_bw, 2, FP(silu_bw), NULL);

/* leaky_relu(x; negval), softplus(x; beta, threshold): opmath captures. */
EW_FP(leaky_relu, return x[0] > 0 ? x[0] : x[0] * c[0];)
DEF(ew_leaky_relu, 1, FP(leaky_relu), NULL, CAP_OPMATH);
EW_FP(softplus, return x[0] * c[0] > c[1] ? x[0] : log1p(exp(x[0] * c[0])) / c[0];)
DEF(ew_softplus, 1, FP(softplus), NULL, CAP_OPMATH, CAP_OPMATH);

/* remainder: the sign of the divisor (Python's %). */
EW_FP(remainder, T m = fmod(x[0], x[1]); if (m != 0 && ((x[1] < 0) != (m < 0))) m += x[1]; return m;)
DEF0(ew_remainder, 2, FP(remainder), NULL);

/* nan_to_num(x; nan, posinf, neginf), the replacements in scalar_t. */
EW_FP(nan_to_num, if (x[0] != x[0]) return c[0]; if (isinf(x[0])) return x[0] > 0 ? c[1] : c[2]; return x[0];)
DEF(ew_nan_to_num, 1, FP(nan_to_num), NULL, CAP_SCALAR, CAP_SCALAR, CAP_SCALAR);

/* Bitwise ops on integers and bools. */
EW_INT(bitwise_not, return e->scalar == ATEN_BOOL ? !x[0] : ~x[0];)
DEF0(ew_bitwise_not, 1, NULL, NULL, bitwise_not_i);
EW_INT(bitwise_and, return x[0] & x[1];)
DEF0(ew_bitwise_and, 2, NULL, NULL, bitwise_and_i);
EW_INT(bitwise_or, return x[0] | x[1];)
DEF0(ew_bitwise_or, 2, NULL, NULL, bitwise_or_i);
EW_INT(bitwise_xor, return x[0] ^ x[1];)
DEF0(ew_bitwise_xor, 2, NULL, NULL, bitwise_xor_i);

/* masked_fill(self, mask; value): value a scalar_t, moved as bytes. */
static void masked_fill_raw(const ew_inst *in, const unsigned char *fb, void *out, const void *const *x)
{
    bool mask = aten_load(in->arg[1], x[1]).i != 0;
    if (mask)
        aten_convert(in->res, out, in->cap_type[0], fb + in->cap_off[0]);
    else
        memcpy(out, x[0], aten_dtype_size(in->res));
}
const ew_def ew_masked_fill = {"masked_fill", 2, {CAP_SCALAR}, 1, NULL, NULL, NULL, masked_fill_raw};

/* elu/selu/celu(x; negcoef, poscoef, negiptcoef), opmath captures. */
EW_FP(elu, return x[0] <= 0 ? (exp(x[0] * c[2]) - (T)1) * c[0] : x[0] * c[1];)
DEF(ew_elu, 1, FP(elu), NULL, CAP_OPMATH, CAP_OPMATH, CAP_OPMATH);
/* hardswish/hardsigmoid(x; zero, one_sixth, three, six). */
#define HARD(x) (fmin(fmax((x) + c[2], c[0]), c[3]) * c[1])
EW_FP(hardswish, return x[0] * HARD(x[0]);)
DEF(ew_hardswish, 1, FP(hardswish), NULL, CAP_OPMATH, CAP_OPMATH, CAP_OPMATH, CAP_OPMATH);
EW_FP(hardsigmoid, return HARD(x[0]);)
DEF(ew_hardsigmoid, 1, FP(hardsigmoid), NULL, CAP_OPMATH, CAP_OPMATH, CAP_OPMATH, CAP_OPMATH);
EW_FP(mish, return x[0] * tanh(log1p(exp(x[0])));)
DEF0(ew_mish, 1, FP(mish), NULL);
EW_FP(signbit, return signbit(x[0]) != 0;)
EW_INT(signbit, return x[0] < 0;)
DEF0(ew_signbit, 1, FPI(signbit));
EW_FP(logical_not, return !x[0];)
EW_INT(logical_not, return !x[0];)
DEF0(ew_logical_not, 1, FPI(logical_not));
