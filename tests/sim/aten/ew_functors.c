/* Which op a functor is, from its demangled name, and where its captures
 * sit. Lambdas are known by the function that defines them (and, where
 * one function holds several, by the dispatch branch or the lambda's
 * number); their types by their parameter list. Named functors carry
 * their types as template arguments. Capture layouts were read off real
 * launches of torch 2.15.0 (a lambda's captures in order of first use). */
#include "ew.h"

#include <string.h>

typedef enum res_rule { RES_ARG0, RES_BOOL, RES_ARG1, RES_TEMPLATE2 } res_rule;

typedef struct lambda_op {
    const char *where; /* a substring naming the defining function (and branch) */
    int number;        /* the element lambda's #number, 0: any */
    const ew_def *def;
    res_rule res;
} lambda_op;

#define GELU_FWD "::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)"
#define GELU_BWD "::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)"

static const lambda_op lambda_ops[] = {
    {"::direct_copy_kernel_cuda(", 0, &ew_copy, RES_ARG0},
    {"::converting_copy_kernel_cuda<", 0, &ew_convert, RES_TEMPLATE2},
    {GELU_FWD "::{lambda()#1}", 0, &ew_gelu_tanh, RES_ARG0},
    {GELU_FWD "::{lambda()#2}", 0, &ew_gelu, RES_ARG0},
    {GELU_BWD "::{lambda()#1}", 0, &ew_gelu_tanh_bw, RES_ARG0},
    {GELU_BWD "::{lambda()#2}", 0, &ew_gelu_bw, RES_ARG0},
    {"::mse_kernel_cuda(", 0, &ew_mse, RES_ARG0},
    {"::mse_backward_cuda_kernel(", 0, &ew_mse_bw, RES_ARG0},
    {"::exp_kernel_cuda(", 0, &ew_exp, RES_ARG0},
    {"::log_kernel_cuda(", 0, &ew_log, RES_ARG0},
    {"::tanh_kernel_cuda(", 0, &ew_tanh, RES_ARG0},
    {"::sigmoid_kernel_cuda(", 0, &ew_sigmoid, RES_ARG0},
    {"::sqrt_kernel_cuda(", 0, &ew_sqrt, RES_ARG0},
    {"::rsqrt_kernel_cuda(", 0, &ew_rsqrt, RES_ARG0},
    {"::reciprocal_kernel_cuda(", 0, &ew_reciprocal, RES_ARG0},
    {"::neg_kernel_cuda(", 0, &ew_neg, RES_ARG0},
    {"::sign_kernel_cuda(", 0, &ew_sign, RES_ARG0},
    {"::silu_kernel(", 0, &ew_silu, RES_ARG0},
    {"::pow_tensor_scalar_kernel_impl<", 1, &ew_square, RES_ARG0},
    {"::pow_tensor_scalar_kernel_impl<", 2, &ew_cube, RES_ARG0},
    {"::pow_tensor_scalar_kernel_impl<", 3, &ew_inv_square, RES_ARG0},
    {"::pow_tensor_scalar_kernel_impl<", 4, &ew_pow_scalar, RES_ARG0},
    {"::addcmul_cuda_kernel(", 0, &ew_addcmul, RES_ARG0},
    {"::addcdiv_cuda_kernel(", 0, &ew_addcdiv, RES_ARG0},
    {"::lerp_scalar_kernel(", 0, &ew_lerp_scalar, RES_ARG0},
    {"::masked_scale_kernel<", 0, &ew_masked_scale, RES_ARG0},
    {"::lerp_tensor_kernel(", 0, &ew_lerp_tensor, RES_ARG0},
    {"::clamp_kernel_impl(", 0, &ew_clamp, RES_ARG0},
    {"::launch_clamp_scalar(", 0, &ew_clamp_scalar, RES_ARG0},
    {"::where_kernel_impl(", 0, &ew_where, RES_ARG1},
    {"::compare_scalar_kernel<", 0, &ew_compare_scalar, RES_BOOL},
    {"::threshold_kernel_impl<", 0, &ew_threshold, RES_ARG0},
    {"::maximum_kernel_cuda(", 0, &ew_maximum, RES_ARG0},
    {"::minimum_kernel_cuda(", 0, &ew_minimum, RES_ARG0},
    {"::erf_kernel_cuda(", 0, &ew_erf, RES_ARG0},
    {"::cos_kernel_cuda(", 0, &ew_cos, RES_ARG0},
    {"::sin_kernel_cuda(", 0, &ew_sin, RES_ARG0},
    {"::floor_kernel_cuda(", 0, &ew_floor, RES_ARG0},
    {"::round_kernel_cuda(", 0, &ew_round_op, RES_ARG0},
    {"::log1p_kernel_cuda(", 0, &ew_log1p, RES_ARG0},
    {"::expm1_kernel_cuda(", 0, &ew_expm1, RES_ARG0},
    {"::exp2_kernel_cuda(", 0, &ew_exp2, RES_ARG0},
    {"::log2_kernel_cuda(", 0, &ew_log2, RES_ARG0},
    {"::pow_tensor_tensor_kernel(", 0, &ew_pow_tensor, RES_ARG0},
    {"::tanh_backward_kernel_cuda(", 0, &ew_tanh_bw, RES_ARG0},
    {"::sigmoid_backward_kernel_cuda(", 0, &ew_sigmoid_bw, RES_ARG0},
    {"::silu_backward_kernel(", 0, &ew_silu_bw, RES_ARG0},
    {"::leaky_relu_kernel(", 0, &ew_leaky_relu, RES_ARG0},
    {"::softplus_kernel(", 0, &ew_softplus, RES_ARG0},
    {"::remainder_kernel_cuda(", 0, &ew_remainder, RES_ARG0},
    {"::nan_to_num_kernel_cuda(", 0, &ew_nan_to_num, RES_ARG0},
    {"::bitwise_not_kernel_cuda(", 0, &ew_bitwise_not, RES_ARG0},
    {"::masked_fill_kernel(", 0, &ew_masked_fill, RES_ARG0},
    {"::elu_kernel(", 0, &ew_elu, RES_ARG0},
    {"::hardswish_kernel(", 0, &ew_hardswish, RES_ARG0},
    {"::hardsigmoid_kernel(", 0, &ew_hardsigmoid, RES_ARG0},
    {"::mish_kernel(", 0, &ew_mish, RES_ARG0},
    {"::signbit_kernel_cuda(", 0, &ew_signbit, RES_BOOL},
    /* The output type is the inner dispatch's case: #10 is bool (measured). */
    {"::logical_not_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#10}", 0,
     &ew_logical_not, RES_BOOL},
};

/* Named functors: Name<T> computing def over (T, ...) -> T (or bool). */
typedef struct named_op { const char *name; const ew_def *def; res_rule res; } named_op;
static const named_op named_ops[] = {
    {"at::native::FillFunctor<", &ew_fill, RES_ARG0},
    {"at::native::CUDAFunctor_add<", &ew_add_alpha, RES_ARG0},
    {"at::native::CUDAFunctorOnSelf_add<", &ew_add_self, RES_ARG0},
    {"at::native::CUDAFunctorOnOther_add<", &ew_add_other, RES_ARG0},
    {"at::native::AbsFunctor<", &ew_abs, RES_ARG0},
    {"at::native::(anonymous namespace)::CompareFunctor<", &ew_compare, RES_BOOL},
};
/* Inner functors of AUnaryFunctor/BUnaryFunctor/BinaryFunctor. */
static const named_op inner_ops[] = {
    {"at::native::binary_internal::MulFunctor<", &ew_mul, RES_ARG0},
    {"at::native::binary_internal::DivFunctor<", &ew_div, RES_ARG0},
    {"at::native::(anonymous namespace)::CompareEqFunctor<", &ew_compare_eq, RES_BOOL},
    {"at::native::BitwiseAndFunctor<", &ew_bitwise_and, RES_ARG0},
    {"at::native::BitwiseOrFunctor<", &ew_bitwise_or, RES_ARG0},
    {"at::native::BitwiseXorFunctor<", &ew_bitwise_xor, RES_ARG0},
};

static aten_dtype parse_type(aten_span s)
{
    const char *rest;
    aten_dtype t = aten_dtype_parse(s.s, &rest);
    return t != ATEN_NONE && rest == s.s + s.n ? t : ATEN_NONE;
}

static aten_dtype opmath(aten_dtype t)
{
    return t == ATEN_HALF || t == ATEN_BFLOAT16 ? ATEN_FLOAT : t;
}

static aten_dtype acc(aten_dtype t)
{
    return aten_dtype_is_float(t) ? opmath(t) : aten_dtype_is_int(t) ? ATEN_LONG : t;
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Lays the captures of def out from byte 0 (natural alignment); returns
 * the largest alignment. */
static size_t lay_out(ew_inst *in, const ew_def *def)
{
    size_t off = 0, maxa = 1;
    in->ncaps = 0;
    in->mode_cap = -1;
    for (int k = 0; k < def->ncaps; k++) {
        aten_dtype t = ATEN_NONE;
        size_t size = 1;
        switch (def->caps[k]) {
        case CAP_SCALAR: t = in->scalar; break;
        case CAP_OPMATH: t = opmath(in->scalar); break;
        case CAP_ACC: t = acc(in->scalar); break;
        case CAP_MODE: t = ATEN_INT, in->mode_cap = k; break;
        case CAP_EMPTY: break;
        }
        if (t != ATEN_NONE)
            size = aten_dtype_size(t);
        off = align_up(off, size);
        in->cap_off[k] = off;
        in->cap_type[k] = t;
        off += size;
        maxa = size > maxa ? size : maxa;
    }
    in->ncaps = def->ncaps;
    in->fsize = off ? align_up(off, maxa) : 1;
    in->falign = maxa;
    return maxa;
}

static ew_class class_of(aten_dtype t)
{
    t = acc(t);
    return t == ATEN_FLOAT ? EW_F : t == ATEN_DOUBLE ? EW_D : EW_I;
}

/* The op's arithmetic exists for its class (byte movers work for all). */
static bool computable(const ew_inst *in)
{
    const ew_def *d = in->def;
    if (d->raw)
        return true;
    if (!aten_dtype_is_real(in->scalar))
        return false;
    return in->cls == EW_F ? d->f != NULL : in->cls == EW_D ? d->d != NULL : d->i != NULL;
}

static bool from_lambda(aten_span f, ew_inst *in)
{
    aten_span params[EW_MAX_IN];
    int nparams, number;
    if (!aten_lambda(f, params, EW_MAX_IN, &nparams, &number))
        return false;
    for (size_t i = 0; i < sizeof lambda_ops / sizeof *lambda_ops; i++) {
        const lambda_op *op = &lambda_ops[i];
        if (!aten_span_has(f, op->where) || (op->number && op->number != number))
            continue;
        if (nparams != op->def->arity)
            return false;
        in->def = op->def;
        in->arity = nparams;
        for (int k = 0; k < nparams; k++)
            if ((in->arg[k] = parse_type(params[k])) == ATEN_NONE)
                return false;
        in->scalar = in->arg[op->res == RES_ARG1 ? 1 : 0];
        in->res = op->res == RES_BOOL ? ATEN_BOOL : in->scalar;
        if (op->res == RES_TEMPLATE2) {
            aten_span targs[2];
            const char *open = aten_span_find(f, op->where) + strlen(op->where) - 1;
            if (aten_template_args(open, targs, 2) != 2 || (in->res = parse_type(targs[1])) == ATEN_NONE)
                return false;
        }
        lay_out(in, in->def);
        return true;
    }
    return false;
}

/* Name<T> with one type argument. */
static bool from_named(aten_span f, const named_op *ops, size_t nops, ew_inst *in)
{
    for (size_t i = 0; i < nops; i++) {
        size_t n = strlen(ops[i].name);
        aten_span t[1];
        if (f.n <= n || strncmp(f.s, ops[i].name, n) != 0 || f.s + f.n != aten_closing(f.s + n - 1) + 1 ||
            aten_template_args(f.s + n - 1, t, 1) != 1)
            continue;
        in->def = ops[i].def;
        in->arity = in->def->arity;
        in->scalar = parse_type(t[0]);
        if (in->scalar == ATEN_NONE)
            return false;
        for (int k = 0; k < in->arity; k++)
            in->arg[k] = in->scalar;
        in->res = ops[i].res == RES_BOOL ? ATEN_BOOL : in->scalar;
        lay_out(in, in->def);
        return true;
    }
    return false;
}

/* AUnaryFunctor<a1, a2, r, F>: {F f; b;}, a2 a -> F(b, a);
 * BUnaryFunctor<a1, a2, r, F>: {F f; b;}, a1 a -> F(a, b);
 * BinaryFunctor<a1, a2, r, F>: {F f;}.
 * b has F's own argument type (measured: float for MulFunctor<float> over
 * bfloat16 tensors, bfloat16 for CompareEqFunctor<c10::BFloat16>). */
static bool from_wrapper(aten_span f, ew_inst *in)
{
    static const struct { const char *name; ew_wrap wrap; } wraps[] = {
        {"at::native::AUnaryFunctor<", WRAP_AUNARY},
        {"at::native::BUnaryFunctor<", WRAP_BUNARY},
        {"at::native::BinaryFunctor<", WRAP_BINARY},
    };
    for (size_t i = 0; i < sizeof wraps / sizeof *wraps; i++) {
        size_t n = strlen(wraps[i].name);
        aten_span t[4];
        if (f.n <= n || strncmp(f.s, wraps[i].name, n) != 0 || aten_template_args(f.s + n - 1, t, 4) != 4)
            continue;
        aten_dtype a1 = parse_type(t[0]), a2 = parse_type(t[1]), r = parse_type(t[2]);
        if (a1 == ATEN_NONE || a2 == ATEN_NONE || r == ATEN_NONE)
            return false;
        ew_inst inner = {0};
        if (!from_named(t[3], inner_ops, sizeof inner_ops / sizeof *inner_ops, &inner) && !from_lambda(t[3], &inner))
            return false;
        if (inner.def->arity != 2)
            return false;
        *in = inner;
        in->wrap = wraps[i].wrap;
        in->scalar = a1;
        in->res = r;
        size_t maxa = lay_out(in, in->def);
        if (wraps[i].wrap == WRAP_BINARY) {
            in->arity = 2;
            in->arg[0] = a1, in->arg[1] = a2;
            return true;
        }
        /* The scalar b follows the inner functor. */
        aten_dtype bt = wraps[i].wrap == WRAP_AUNARY ? inner.arg[0] : inner.arg[1];
        size_t bs = aten_dtype_size(bt), off = align_up(in->fsize, bs);
        in->cap_off[in->ncaps] = off;
        in->cap_type[in->ncaps] = bt;
        in->ncaps++;
        maxa = bs > maxa ? bs : maxa;
        in->fsize = align_up(off + bs, maxa);
        in->falign = maxa;
        in->arity = 1;
        in->arg[0] = wraps[i].wrap == WRAP_AUNARY ? a2 : a1;
        return true;
    }
    return false;
}

bool ew_functor(aten_span f, ew_inst *in)
{
    memset(in, 0, sizeof *in);
    bool ok = from_wrapper(f, in) || from_named(f, named_ops, sizeof named_ops / sizeof *named_ops, in) ||
              from_lambda(f, in);
    if (!ok)
        return false;
    in->cls = class_of(in->scalar);
    return computable(in);
}
