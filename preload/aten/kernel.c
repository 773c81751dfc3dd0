/* ATen kernels by their demangled names (kernel.h). The names follow the
 * shapes of CUDALoops.cuh's templates; everything is matched literally and
 * any surprise leaves the kernel unrecognised. */
#include <stdio.h>
#include <string.h>

#include "aten/abi_reduce.h"
#include "aten/kernel.h"
#include "aten/cat.h"
#include "aten/tiled.h"
#include "aten/kernel_ptr.h"
#include "aten/span.h"


/* The function a lambda functor lives in, "at::native::x_kernel_cuda<...>",
 * up to its parameter list ("(anonymous namespace)" is not one). */
static span enclosing(span f)
{
    for (size_t i = 0; i < f.n; i++)
        if (f.p[i] == '(') {
            const char *anon = "(anonymous namespace)";
            if (f.n - i >= strlen(anon) && memcmp(f.p + i, anon, strlen(anon)) == 0) {
                i += strlen(anon) - 1;
                continue;
            }
            return (span){ f.p, i };
        }
    return f;
}

/* The last `::`-component of a path, template arguments set aside. */
static span last_component(span path, span *targs)
{
    size_t end = path.n;
    *targs = (span){ NULL, 0 };
    if (end && path.p[end - 1] == '>') {
        int depth = 0;
        for (size_t i = end; i-- > 0;) {
            depth += path.p[i] == '>';
            depth -= path.p[i] == '<';
            if (depth == 0) {
                *targs = (span){ path.p + i + 1, end - i - 2 };
                end = i;
                break;
            }
        }
    }
    size_t start = end;
    while (start > 0 && !(path.p[start - 1] == ':' || path.p[start - 1] == ' '))
        start--;
    return (span){ path.p + start, end - start };
}

static void set_op(aten_kernel *k, span name)
{
    static const char *suffixes[] = { "_kernel_cuda", "_kernel_impl", "_kernel" };
    for (size_t i = 0; i < 3; i++)
        if (aten_ends(name, suffixes[i])) {
            name.n -= strlen(suffixes[i]);
            break;
        }
    size_t n = name.n < sizeof k->op - 1 ? name.n : sizeof k->op - 1;
    memcpy(k->op, name.p, n);
    k->op[n] = 0;
}

/* The output's type where the functor's name proves it. */
static void output_type(aten_kernel *k, span targs)
{
    span a[2];
    const char *sn = "?";
    uint32_t size = 0;
    if (strcmp(k->op, "direct_copy") == 0 && k->nargs == 2 && k->exact[1]) {
        size = k->elem[1];
        k->copy = true;
        sn = k->dtype;
    } else if (strcmp(k->op, "converting_copy") == 0 && aten_split(targs, a, 2) == 2)
        size = aten_type_size(a[1].p, a[1].n, &sn);
    else if (strcmp(k->op, "bfloat16_copy") == 0)
        size = aten_type_size("c10::BFloat16", 13, &sn);
    else if (strcmp(k->op, "float16_copy") == 0)
        size = aten_type_size("c10::Half", 9, &sn);
    if (size) {
        k->elem[0] = size;
        k->exact[0] = true;
        k->dtype = sn;
    } else {
        k->dtype = "?";
    }
}

/* A lambda functor: its parameter types are the inputs' types (no casting
 * in these families); the function it lives in names the op. */
static bool lambda_functor(span f, aten_kernel *k)
{
    const char *last = NULL;
    for (const char *p = f.p; (p = memmem(p, (size_t)(f.p + f.n - p), "{lambda(", 8)); p++)
        last = p;
    if (!last || !aten_ends(f, "}"))
        return false;
    span params = { last + 7, (size_t)(f.p + f.n - last - 7) };
    size_t close = aten_closing(params);
    if (close == params.n)
        return false;
    span types_[ATEN_MAX_ARGS];
    int arity = aten_split((span){ params.p + 1, close - 1 }, types_, ATEN_MAX_ARGS - 1);
    if (arity < 0)
        return false;
    k->nargs = arity + 1;
    k->dtype = "?";
    for (int i = 0; i < arity; i++) {
        const char *sn = NULL;
        uint32_t size = aten_type_size(types_[i].p, types_[i].n, &sn);
        k->elem[i + 1] = size ? size : ATEN_MAX_ELEM;
        k->exact[i + 1] = size != 0;
        if (i == 0 && sn)
            k->dtype = sn;
    }
    span targs;
    set_op(k, last_component(enclosing(f), &targs));
    output_type(k, targs);
    return true;
}

/* Unary functor structs computing a T from a T (AbsFunctor<T>; the add
 * of a tensor and a scalar, CUDAFunctorOnSelf_add<T>, OnOther_add<T>). */
static bool unary_same_type(const char *op)
{
    return strcmp(op, "AbsFunctor") == 0 || strcmp(op, "CUDAFunctorOnSelf_add") == 0 ||
           strcmp(op, "CUDAFunctorOnOther_add") == 0;
}

/* The operands' types of the functor structs whose template arguments
 * name them (BinaryInternal.h, BinaryOps: {A,B}UnaryFunctor<arg1, arg2,
 * return, f> hold one operand as a scalar; BinaryFunctor<arg1, arg2,
 * return, f>; CUDAFunctor_add<T>). Exact where no loader casts: the
 * kernels that do take their sizes from the launch. */
static void functor_types(aten_kernel *k, span targs)
{
    span a[4];
    int n = aten_split(targs, a, 4), in[2] = { -1, -1 }, out = -1;
    if (strcmp(k->op, "AUnaryFunctor") == 0 && n == 4 && k->nargs == 2)
        in[0] = 1, out = 2;
    else if (strcmp(k->op, "BUnaryFunctor") == 0 && n == 4 && k->nargs == 2)
        in[0] = 0, out = 2;
    else if (strcmp(k->op, "BinaryFunctor") == 0 && n == 4 && k->nargs == 3)
        in[0] = 0, in[1] = 1, out = 2;
    else if (strcmp(k->op, "CUDAFunctor_add") == 0 && n == 1 && k->nargs == 3)
        in[0] = 0, in[1] = 0, out = 0;
    else if (unary_same_type(k->op) && n == 1 && k->nargs == 2)
        in[0] = 0, out = 0;
    else if (strcmp(k->op, "CompareFunctor") == 0 && n == 1 && k->nargs == 3) {
        /* bool operator()(T, T) */
        uint32_t t = aten_type_size(a[0].p, a[0].n, NULL);
        if (!t)
            return;
        k->elem[0] = 1, k->exact[0] = true, k->dtype = "bool";
        k->elem[1] = k->elem[2] = t, k->exact[1] = k->exact[2] = true;
        return;
    }
    if (out < 0)
        return;
    const char *sn = NULL;
    uint32_t o = aten_type_size(a[out].p, a[out].n, &sn);
    uint32_t i0 = aten_type_size(a[in[0]].p, a[in[0]].n, NULL);
    uint32_t i1 = in[1] >= 0 ? aten_type_size(a[in[1]].p, a[in[1]].n, NULL) : 1;
    if (!o || !i0 || !i1)
        return;
    k->elem[0] = o, k->exact[0] = true, k->dtype = sn;
    k->elem[1] = i0, k->exact[1] = true;
    if (in[1] >= 0)
        k->elem[2] = i1, k->exact[2] = true;
}

/* A functor struct ("at::native::CUDAFunctor_add<c10::BFloat16>"): its
 * operands' types, where functor_types does not know them, are only
 * bounded. */
static bool struct_functor(span f, int nargs, aten_kernel *k)
{
    span targs, name = last_component(f, &targs);
    /* a lambda is no struct, but a struct may wrap one
     * (BinaryFunctor<T, T, T, lambda>): '{' only inside its arguments */
    size_t head = targs.p ? (size_t)(targs.p - f.p) : f.n;
    if (nargs < 1 || nargs > ATEN_MAX_ARGS || memchr(f.p, '{', head))
        return false;
    k->nargs = nargs;
    for (int i = 1; i < nargs; i++)
        k->elem[i] = ATEN_MAX_ELEM, k->exact[i] = false;
    set_op(k, name);
    k->dtype = "?";
    functor_types(k, targs);
    return true;
}

/* The operand count of a legacy closure's struct functor (functor_types'
 * structs), 0 when unknown. */
static int struct_arity(span f)
{
    span targs, name = last_component(f, &targs);
    if ((name.n == 13 && (aten_starts(name, "AUnaryFunctor") || aten_starts(name, "BUnaryFunctor"))))
        return 2;
    if ((name.n == 13 && aten_starts(name, "BinaryFunctor")) || (name.n == 15 && aten_starts(name, "CUDAFunctor_add")) ||
        (name.n == 14 && aten_starts(name, "CompareFunctor")))
        return 3;
    char op[32];
    if (name.n >= sizeof op)
        return 0;
    memcpy(op, name.p, name.n);
    op[name.n] = 0;
    return unary_same_type(op) ? 2 : 0;
}

/* elementwise_kernel<nt, vt, gpu_kernel_impl_nocast<F>(...)::{lambda(int)#1}>,
 * or gpu_kernel_impl<F>'s casting closure: its operands' types are the
 * launch's dtypes (the functor's are what it computes in), so none is
 * exact from the name. */
static bool parse_legacy(span args, aten_kernel *k)
{
    span a[3], f, rest;
    if (aten_split(args, a, 3) != 3)
        return false;
    if (!aten_template_args(a[2], "at::native::gpu_kernel_impl_nocast", &f, &rest)) {
        if (!aten_template_args(a[2], "at::native::gpu_kernel_impl", &f, &rest))
            return false;
        k->cast = true;
    }
    if (!aten_starts(rest, "(at::TensorIteratorBase&, ") || !aten_ends(rest, ")::{lambda(int)#1}"))
        return false;
    while (f.n && f.p[f.n - 1] == ' ') /* "CUDAFunctor_add<float> >" */
        f.n--;
    k->family = ATEN_FAM_LEGACY;
    k->vt = a[1].n == 1 ? a[1].p[0] - '0' : 0;
    /* a struct functor of known arity: nocast, its types are the
     * operands' (functor_types); casting, the launch's dtypes say */
    if (!lambda_functor(f, k) && !struct_functor(f, struct_arity(f), k))
        return false;
    if (k->cast) {
        k->copy = false;
        for (int i = 0; i < k->nargs; i++)
            k->elem[i] = ATEN_MAX_ELEM, k->exact[i] = false;
        k->dtype = "?";
    }
    if (!k->exact[0])
        k->elem[0] = ATEN_MAX_ELEM;
    return true;
}

/* vectorized_elementwise_kernel<vec, F, std::array<char*, Kul>[, ...]> */
static bool parse_vectorized(span args, aten_kernel *k)
{
    span a[4];
    int n = aten_split(args, a, 4);
    int K = 0;
    if (n < 3 || a[0].n != 1 || sscanf(a[2].p, "std::array<char*, %dul>", &K) != 1 || K < 1 || K > ATEN_MAX_ARGS)
        return false;
    k->family = ATEN_FAM_VECTORIZED;
    k->vec = a[0].p[0] - '0';
    if (k->vec < 1 || k->vec > 8)
        return false;
    if (!lambda_functor(a[1], k) && !struct_functor(a[1], K, k))
        return false;
    if (k->nargs != K)
        return false;
    if (!k->exact[0]) /* vec = min(16 / sizeof(result), ...) */
        k->elem[0] = ATEN_MAX_ELEM / (uint32_t)k->vec;
    return true;
}

/* unrolled_elementwise_kernel<F, std::array<char*, Kul>, vt, inp_calc,
 * out_calc, loader, storer>: contiguous (trivial calculators) or strided,
 * casting through LoadWithCast<arity>/StoreWithCast<1> (element sizes in
 * the launch) or not (the functor's). */
static bool parse_unrolled(span args, aten_kernel *k)
{
    span a[7];
    int K = 0, kin = -1, kout = -1;
    if (aten_split(args, a, 7) != 7 || sscanf(a[1].p, "std::array<char*, %dul>", &K) != 1 || K < 1 ||
        K > ATEN_MAX_ARGS || a[2].n != 1 || a[2].p[0] < '1' || a[2].p[0] > '9')
        return false;
    bool tin = aten_starts(a[3], "TrivialOffsetCalculator<"), tout = aten_starts(a[4], "TrivialOffsetCalculator<");
    if (tin != tout || (!tin && (!aten_starts(a[3], "OffsetCalculator<") || !aten_starts(a[4], "OffsetCalculator<"))) ||
        sscanf(a[3].p + (tin ? 24 : 17), "%d", &kin) != 1 || sscanf(a[4].p + (tout ? 24 : 17), "%d", &kout) != 1 ||
        kin != K - 1 || kout != 1)
        return false;
    bool lc = aten_starts(a[5], "at::native::memory::LoadWithCast<"), sc = aten_starts(a[6], "at::native::memory::StoreWithCast<1>");
    bool lp = a[5].n == 35 && aten_starts(a[5], "at::native::memory::LoadWithoutCast");
    bool sp = a[6].n == 36 && aten_starts(a[6], "at::native::memory::StoreWithoutCast");
    if (lc != sc || (!lc && !(lp && sp)))
        return false;
    k->family = ATEN_FAM_UNROLLED;
    k->vt = a[2].p[0] - '0';
    k->cast = lc;
    k->trivial = tin;
    if (!lambda_functor(a[0], k) && !struct_functor(a[0], K, k))
        return false;
    if (k->nargs != K)
        return false;
    if (!k->exact[0])
        k->elem[0] = ATEN_MAX_ELEM;
    return true;
}

/* distribution_elementwise_grid_stride_kernel<acc, unroll, dist, transform>,
 * the transform being distribution_nullary_kernel<scalar_t, ...>'s lambda
 * #1 (1-d) or #2 (OffsetCalculator<1>): one operand, written, of
 * scalar_t. */
static bool parse_random(span s, aten_kernel *k)
{
    const char *nullary = memmem(s.p, s.n, "distribution_nullary_kernel<", 28);
    const char *last = NULL;
    for (const char *p = s.p; (p = memmem(p, (size_t)(s.p + s.n - p), "{lambda(int, ", 13)); p++)
        last = p;
    const char *hash = last ? memchr(last, '#', (size_t)(s.p + s.n - last)) : NULL;
    if (!nullary || !hash || (hash[1] != '1' && hash[1] != '2') || hash[2] != '}')
        return false;
    span targs = { nullary + 27, (size_t)(s.p + s.n - nullary - 27) };
    size_t close = aten_closing(targs);
    const char *comma = close < targs.n ? memchr(targs.p, ',', close) : NULL;
    if (!comma)
        return false;
    const char *sn = NULL;
    uint32_t size = aten_type_size(targs.p + 1, (size_t)(comma - targs.p - 1), &sn);
    if (!size)
        return false;
    k->family = ATEN_FAM_RANDOM;
    k->nargs = 1;
    k->elem[0] = size;
    k->exact[0] = true;
    k->dtype = sn;
    k->strided = hash[1] == '2';
    snprintf(k->op, sizeof k->op, "random");
    return true;
}

/* A reduction's accumulator (MeanOps' and NormTwoOps' acc_t, Welford's):
 * float or double only (the identity's layout is then the type's). */
static uint32_t acc_size(span t)
{
    uint32_t n = aten_type_size(t.p, t.n, NULL);
    return n == 4 || n == 8 ? n : 0;
}

/* func_wrapper_t<T, F>: an empty state; arg_t is the combining lambda's
 * first parameter (func_wrapper_t's binary_function_traits), or a
 * Max/MinNanFunctor<T>'s T. One output. */
static bool reduce_func_wrapper(span fw, aten_kernel *k)
{
    span w[2], t[1], targs;
    if (aten_split(fw, w, 2) != 2)
        return false;
    const char *lam = NULL;
    for (const char *p = w[1].p; (p = memmem(p, (size_t)(w[1].p + w[1].n - p), "{lambda(", 8)); p++)
        lam = p;
    const char *comma = lam ? memchr(lam, ',', (size_t)(w[1].p + w[1].n - lam)) : NULL;
    uint32_t arg = comma ? aten_type_size(lam + 8, (size_t)(comma - lam - 8), NULL) : 0;
    if (!lam && (aten_named_template(w[1], "at::native::MaxNanFunctor", &targs, 1, t) ||
                 aten_named_template(w[1], "at::native::MinNanFunctor", &targs, 1, t)))
        arg = aten_type_size(t[0].p, t[0].n, NULL);
    if (!arg || arg > 8) /* complex identities align differently */
        return false;
    k->ops_size = 1, k->arg_size = k->arg_align = arg;
    const char *sub = memmem(fw.p, fw.n, "::", 2);
    snprintf(k->op, sizeof k->op, "%s", lam ? "reduce" : aten_starts(w[1], "at::native::MaxNan") ? "amax" : "amin");
    for (const char *p = fw.p; sub && (p = memmem(p, (size_t)(fw.p + fw.n - p), "_functor<", 9)); p++) {
        const char *b = p;
        while (b > fw.p && b[-1] != ':')
            b--;
        snprintf(k->op, sizeof k->op, "%.*s", (int)(p - b), b);
        break;
    }
    return true;
}

/* SharedReduceOps.h's structs (abi_reduce.h): MeanOps<scalar, acc,
 * factor, out> {factor_t factor}, NormTwoOps<scalar, acc, out, ...> {},
 * ArgMax/ArgMinOps<acc> {} (arg pair<acc, int64>, one int64 output),
 * Max/MinOps<acc> {} (two outputs: values, then int64 indices), WelfordOps
 * <scalar, acc, int, pair<out, out>> {acc correction; bool take_sqrt}
 * (two outputs: var, mean). */
static bool reduce_ops_struct(span ops, aten_kernel *k)
{
    span t, a[4];
    uint32_t acc;
    if (aten_named_template(ops, "at::native::MeanOps", &t, 4, a) && (acc = acc_size(a[1])) &&
        aten_type_size(a[2].p, a[2].n, NULL) == acc)
        k->ops_size = acc, k->arg_size = k->arg_align = acc, snprintf(k->op, sizeof k->op, "mean");
    else if (aten_named_template(ops, "at::native::NormTwoOps", &t, 4, a) && (acc = acc_size(a[1])))
        k->ops_size = 1, k->arg_size = k->arg_align = acc, snprintf(k->op, sizeof k->op, "norm2");
    else if ((aten_named_template(ops, "at::native::ArgMaxOps", &t, 1, a) ||
              aten_named_template(ops, "at::native::ArgMinOps", &t, 1, a)) && aten_type_size(a[0].p, a[0].n, NULL))
        k->ops_size = 1, k->arg_size = 16, k->arg_align = 8,
        snprintf(k->op, sizeof k->op, "%s", aten_starts(ops, "at::native::ArgMax") ? "argmax" : "argmin");
    else if ((aten_named_template(ops, "at::native::MaxOps", &t, 1, a) ||
              aten_named_template(ops, "at::native::MinOps", &t, 1, a)) && aten_type_size(a[0].p, a[0].n, NULL))
        k->ops_size = 1, k->arg_size = 16, k->arg_align = 8, k->nout = 2, k->elem[1] = 8,
        snprintf(k->op, sizeof k->op, "%s", aten_starts(ops, "at::native::Max") ? "max" : "min");
    else if (aten_named_template(ops, "at::native::WelfordOps", &t, 4, a) && (acc = acc_size(a[1])) && a[2].n == 3 &&
             aten_starts(a[2], "int"))
        k->ops_size = ATEN_WELFORD_OPS_BYTES(acc), k->arg_size = ATEN_WELFORD_DATA_BYTES(acc), k->arg_align = acc,
        k->nout = 2, snprintf(k->op, sizeof k->op, "var_mean");
    else
        return false;
    return true;
}

/* reduce_kernel<nt, ovec, at::native::ReduceOp<scalar_t, ops_t, unsigned
 * int, out_scalar_t, vt0, ivec> >: where the ReduceOp's fields sit follows
 * from ops_t's size and arg_t's size and alignment (abi_reduce.h).
 * Operand 0 the output (1 the second one of Max/Min/Welford), the last
 * the input. */
static bool parse_reduce(span args, aten_kernel *k)
{
    span a[3], ro, rest, r[6], fw;
    /* output_vec_size 1, 2 or 4: output i of a thread's vector is stored
     * at output_calc.get(output_idx + i), inside what the calculator
     * bounds (Reduce.cuh's run<output_vec_size>) */
    if (aten_split(args, a, 3) != 3 || a[1].n != 1 || (a[1].p[0] != '1' && a[1].p[0] != '2' && a[1].p[0] != '4') ||
        !aten_template_args(a[2], "at::native::ReduceOp", &ro, &rest) || aten_split(ro, r, 6) != 6 || r[2].n != 12 ||
        !aten_starts(r[2], "unsigned int"))
        return false;
    const char *sn = NULL, *in_sn = NULL;
    uint32_t in = aten_type_size(r[0].p, r[0].n, &in_sn), out = aten_type_size(r[3].p, r[3].n, &sn);
    bool ok = aten_template_args(r[1], "at::native::func_wrapper_t", &fw, &rest) ? reduce_func_wrapper(fw, k)
                                                                            : reduce_ops_struct(r[1], k);
    if (!in || !out || !ok)
        return false;
    k->family = ATEN_FAM_REDUCE;
    k->nargs = k->nout == 2 ? 3 : 2;
    k->elem[0] = out, k->exact[0] = true;
    if (k->nout == 2) /* Max/MinOps: int64 indices (set above); Welford: the mean, an out_t */
        k->elem[1] = k->elem[1] ? k->elem[1] : out, k->exact[1] = true;
    k->elem[k->nargs - 1] = in, k->exact[k->nargs - 1] = true;
    k->dtype = sn;
    return true;
}

/* fused_dropout_kernel_vec<scalar_t, acc_t, unsigned int, ADims, VEC,
 * mask_t> or fused_dropout_kernel<scalar_t, acc_t, unsigned int, ADims,
 * BDims, mask_t> (abi_random.h): operands b (the output) and c (the mask),
 * both written, then a (the source), read. */
static bool parse_dropout(span s, aten_kernel *k)
{
    const char *at = memmem(s.p, s.n, "::fused_dropout_kernel_vec<", 27);
    bool vec = at != NULL;
    if (!at && !(at = memmem(s.p, s.n, "::fused_dropout_kernel<", 23)))
        return false;
    span from = { at + (vec ? 26 : 22), (size_t)(s.p + s.n - at - (vec ? 26 : 22)) }, a[6];
    size_t close = aten_closing(from);
    int adims = 0, other = 0;
    if (close == from.n || aten_split((span){ from.p + 1, close - 1 }, a, 6) != 6 || a[2].n != 12 ||
        !aten_starts(a[2], "unsigned int") || sscanf(a[3].p, "%d", &adims) != 1 || sscanf(a[4].p, "%d", &other) != 1)
        return false;
    const char *sn = NULL;
    uint32_t t = aten_type_size(a[0].p, a[0].n, &sn), acc = aten_type_size(a[1].p, a[1].n, NULL);
    uint32_t m = aten_type_size(a[5].p, a[5].n, NULL);
    if (!t || (acc != 4 && acc != 8) || m != 1 || adims == 0 || adims > 25 || (!vec && (other == 0 || other > 25)))
        return false;
    k->family = ATEN_FAM_DROPOUT;
    k->nargs = 3;
    k->nout = 2;
    k->elem[0] = t, k->elem[1] = m, k->elem[2] = t;
    k->exact[0] = k->exact[1] = k->exact[2] = true;
    k->adims = adims;
    k->bdims = vec ? 0 : other;
    k->arg_size = acc;
    k->dtype = sn;
    snprintf(k->op, sizeof k->op, "fused_dropout");
    return true;
}

/* The metadata of a multi_tensor_apply_kernel: TensorListMetadata<d>, or
 * TensorListScalarListMetadata<s, d> (one scalar a tensor, in the
 * metadata: *ss its size). */
static bool multi_tensor_meta(span m, int *depth, uint32_t *ss)
{
    const char *ns = "at::native::(anonymous namespace)::";
    span targs, a[2];
    if (!aten_starts(m, ns))
        return false;
    m.p += strlen(ns), m.n -= strlen(ns);
    *ss = 0;
    if (aten_named_template(m, "TensorListMetadata", &targs, 1, a))
        return sscanf(a[0].p, "%d", depth) == 1;
    if (!aten_named_template(m, "TensorListScalarListMetadata", &targs, 2, a) || sscanf(a[1].p, "%d", depth) != 1)
        return false;
    *ss = aten_type_size(a[0].p, a[0].n, NULL);
    return *ss == 4 || *ss == 8; /* opmath_t: float or double */
}

/* multi_tensor_apply_kernel<Metadata, F<T, d, r_args, res_arg>, op[,
 * opmath_t]> for ForeachFunctors.cuh's functors that touch nothing but the
 * lists' elements (a scalar, if any, by value or in the metadata's scalar
 * list): T each. */
static bool parse_multi_tensor(span args, aten_kernel *k)
{
    static const char *const functors[] = { "BinaryOpScalarFunctor<", "BinaryOpListAlphaFunctor<", "UnaryOpFunctor<",
                                            "PointwiseOpScalarFunctor<", "TernaryOpScalarFunctor<",
                                            "BinaryOpScalarListFunctor<", "PointwiseOpScalarListFunctor<" };
    const char *ns = "at::native::(anonymous namespace)::";
    size_t nsn = strlen(ns);
    span a[5], f[4];
    uint32_t ss = 0;
    int n = aten_split(args, a, 5), depth = 0, d2 = 0, r = 0, res = -1;
    if ((n != 3 && n != 4) || !multi_tensor_meta(a[0], &depth, &ss) || depth < 1 || depth > 5 || !aten_starts(a[1], ns) ||
        (ss && n != 3))
        return false;
    span fn = { a[1].p + nsn, a[1].n - nsn };
    size_t which = sizeof functors / sizeof functors[0];
    for (size_t i = 0; i < sizeof functors / sizeof functors[0]; i++)
        if (aten_starts(fn, functors[i]))
            which = i;
    /* a scalar list's functors and the metadata carrying it go together */
    if (which == sizeof functors / sizeof functors[0] || (which >= 5) != (ss != 0))
        return false;
    span inner = { fn.p + strlen(functors[which]) - 1, fn.n - strlen(functors[which]) + 1 };
    size_t close = aten_closing(inner);
    if (close != inner.n - 1 || aten_split((span){ inner.p + 1, close - 1 }, f, 4) != 4 ||
        sscanf(f[1].p, "%d", &d2) != 1 || sscanf(f[2].p, "%d", &r) != 1 || sscanf(f[3].p, "%d", &res) != 1 ||
        d2 != depth || r < 1 || r > depth || res < 0 || res >= depth)
        return false;
    const char *sn = NULL;
    uint32_t t = aten_type_size(f[0].p, f[0].n, &sn);
    uint32_t scalar = n == 4 ? aten_type_size(a[3].p, a[3].n, NULL) : 0;
    if (!t || (n == 4 && !((a[3].n == 5 && aten_starts(a[3], "float")) || (a[3].n == 6 && aten_starts(a[3], "double")))))
        return false;
    k->family = ATEN_FAM_MULTI_TENSOR;
    k->nargs = depth;
    for (int i = 0; i < depth; i++)
        k->elem[i] = t, k->exact[i] = true;
    k->depth = depth;
    k->res = res;
    k->arg_size = scalar;
    k->list_scalar = ss;
    k->dtype = sn;
    snprintf(k->op, sizeof k->op, "foreach %.*s", (int)(strlen(functors[which]) - 1), functors[which]);
    return true;
}

bool aten_kernel_parse(const char *demangled, aten_kernel *k)
{
    memset(k, 0, sizeof *k);
    if (!demangled) /* the demangler failed: nothing to read (memmem wants a pointer) */
        return false;
    span s = { demangled, strlen(demangled) }, args, rest;
    if (aten_starts(s, "void "))
        s.p += 5, s.n -= 5;
    bool ok = false;
    if (aten_template_args(s, "at::native::elementwise_kernel", &args, &rest))
        ok = parse_legacy(args, k);
    else if (aten_template_args(s, "at::native::vectorized_elementwise_kernel", &args, &rest))
        ok = parse_vectorized(args, k);
    else if (aten_template_args(s, "at::native::unrolled_elementwise_kernel", &args, &rest))
        ok = parse_unrolled(args, k);
    else if (aten_template_args(s, "at::native::reduce_kernel", &args, &rest))
        ok = parse_reduce(args, k);
    else if (aten_template_args(s, "at::native::(anonymous namespace)::multi_tensor_apply_kernel", &args, &rest))
        ok = parse_multi_tensor(args, k);
    else if (memmem(s.p, s.n, "::fused_dropout_kernel", 22))
        ok = parse_dropout(s, k);
    else if (memmem(s.p, s.n, "distribution_elementwise_grid_stride_kernel<", 44))
        ok = parse_random(s, k);
    else if (memmem(s.p, s.n, ATEN_TILED_NAME, sizeof ATEN_TILED_NAME - 1))
        ok = aten_tiled_kernel(demangled, k);
    else if (memmem(s.p, s.n, "::CatArrayBatchedCopy", 21))
        ok = aten_cat_kernel(demangled, k);
    else
        ok = aten_parse_ptr_kernel(s, k);
    if (!ok || k->nargs < 1)
        memset(k, 0, sizeof *k);
    return k->family != ATEN_FAM_NONE;
}

void aten_kernel_label(const aten_kernel *k, char *out, size_t cap)
{
    snprintf(out, cap, "at::native %s (%s)", k->op[0] ? k->op : "kernel", k->dtype ? k->dtype : "?");
}
