/* multi_tensor_apply_kernel<Metadata, Functor, Op, [scalar]>: the
 * torch._foreach_* kernels behind the foreach optimizers
 * (preload/aten/abi_multi_tensor.h). Every block's chunk of its tensor is
 * computed element by element in opmath (float for half, bfloat16 and
 * float; double for double), as ForeachFunctors.cuh does:
 *   BinaryOpScalarFunctor       out = op(a, scalar)
 *   BinaryOpScalarListFunctor   out = op(a, scalars[tensor])
 *   BinaryOpListAlphaFunctor    out = op(a, alpha * b)
 *   UnaryOpFunctor              out = op(a)
 *   PointwiseOpScalarFunctor    out = a + scalar * op(b, c)
 *   PointwiseOpScalarListFunctor out = a + scalars[tensor] * op(b, c)
 *   TernaryOpScalarFunctor      out = lerp(a, b, weight)
 * reading lists 0..r_args_depth-1 and writing list res_arg_index. A
 * multiply feeding an add is one fused multiply-add, as nvcc emits it. */
#include "aten.h"
#include "abi_multi_tensor.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum mfunctor { F_BIN_SCALAR, F_BIN_SCALARLIST, F_BIN_LIST_ALPHA, F_UNARY, F_PW_SCALAR, F_PW_SCALARLIST, F_TERN_SCALAR } mfunctor;
typedef enum mop { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_LERP } mop;

typedef struct mctx {
    mfunctor functor;
    mop op;
    aten_dtype t, opmath; /* element type; opmath ATEN_FLOAT or ATEN_DOUBLE */
    int depth, r_args, res;
    bool scalar_list, has_scalar;
    size_t meta_bytes;
} mctx;

static bool dbl(const mctx *c) { return c->opmath == ATEN_DOUBLE; }
static double rnd(const mctx *c, double x) { return dbl(c) ? x : (double)(float)x; }
static double fused(const mctx *c, double a, double b, double acc) { return dbl(c) ? fma(a, b, acc) : (double)fmaf((float)a, (float)b, (float)acc); }

static double binop(const mctx *c, double a, double b)
{
    switch (c->op) {
    case OP_ADD: return rnd(c, a + b);
    case OP_SUB: return rnd(c, a - b);
    case OP_MUL: return rnd(c, a * b);
    case OP_DIV: return rnd(c, a / b);
    default: return NAN;
    }
}

/* at::native::lerp: from the start when |weight| < 0.5, else from the end. */
static double lerp(const mctx *c, double self, double end, double w)
{
    double d = rnd(c, end - self);
    return fabs(w) < 0.5 ? fused(c, w, d, self) : fused(c, -d, rnd(c, 1 - w), end);
}

static double element(const mctx *c, const double *x, double scalar)
{
    switch (c->functor) {
    case F_BIN_SCALAR: case F_BIN_SCALARLIST:
        return binop(c, x[0], scalar);
    case F_BIN_LIST_ALPHA: /* op(a, alpha * b): add/sub fuse the multiply */
        if (c->op == OP_ADD)
            return fused(c, scalar, x[1], x[0]);
        if (c->op == OP_SUB)
            return fused(c, -scalar, x[1], x[0]);
        return binop(c, x[0], rnd(c, scalar * x[1]));
    case F_UNARY:
        return dbl(c) ? sqrt(x[0]) : (double)sqrtf((float)x[0]);
    case F_PW_SCALAR: case F_PW_SCALARLIST:
        return fused(c, scalar, binop(c, x[1], x[2]), x[0]);
    case F_TERN_SCALAR:
        return lerp(c, x[0], x[1], scalar);
    }
    return NAN;
}

static const unsigned char *meta(void **p) { return p[0]; }

static const char *address(const mctx *c, void **p, int k, int tensor)
{
    size_t off = c->scalar_list ? ATEN_SL_ADDRESSES(c->depth, k) : ATEN_TL_ADDRESSES(c->depth, k);
    const char *a;
    memcpy(&a, meta(p) + off + 8 * (size_t)tensor, 8);
    return a;
}

/* The block's tensor and its element range [*lo, *hi). */
static int block(const mctx *c, void **p, unsigned b, int64_t *lo, int64_t *hi)
{
    size_t ss = aten_dtype_size(c->opmath);
    size_t b2t = c->scalar_list ? ATEN_SL_B2T(c->depth, ss) : ATEN_TL_B2T(c->depth);
    size_t b2c = c->scalar_list ? ATEN_SL_B2C(c->depth, ss) : ATEN_TL_B2C(c->depth);
    size_t numel = c->scalar_list ? ATEN_SL_NUMEL(c->depth) : ATEN_TL_NUMEL(c->depth);
    uint16_t tensor;
    int32_t chunk;
    int64_t n;
    memcpy(&tensor, meta(p) + b2t + 2 * b, 2);
    memcpy(&chunk, meta(p) + b2c + 4 * b, 4);
    memcpy(&n, meta(p) + numel + 8 * (size_t)tensor, 8);
    *lo = (int64_t)chunk * ATEN_MT_CHUNK;
    *hi = *lo + ATEN_MT_CHUNK < n ? *lo + ATEN_MT_CHUNK : n;
    return tensor;
}

static double scalar_of(const mctx *c, void **p, int tensor)
{
    if (c->scalar_list)
        return aten_load_double(c->opmath, meta(p) + ATEN_SL_SCALARS(c->depth) + aten_dtype_size(c->opmath) * (size_t)tensor);
    if (c->has_scalar)
        return aten_load_double(c->opmath, p[3]);
    return 0;
}

static void run(const void *ctx, const simcuda_launch *launch, void **params)
{
    const mctx *c = ctx;
    size_t es = aten_dtype_size(c->t);
    for (unsigned b = 0; b < launch->grid[0] && b < ATEN_MT_MAX_BLOCKS; b++) {
        int64_t lo, hi;
        int tensor = block(c, params, b, &lo, &hi);
        double scalar = scalar_of(c, params, tensor);
        const char *in[ATEN_MT_MAX_DEPTH];
        for (int k = 0; k < c->r_args; k++)
            in[k] = address(c, params, k, tensor);
        char *out = (char *)address(c, params, c->res, tensor);
        for (int64_t i = lo; i < hi; i++) {
            double x[ATEN_MT_MAX_DEPTH];
            for (int k = 0; k < c->r_args; k++)
                x[k] = aten_load_double(c->t, in[k] + i * es);
            aten_store_double(c->t, out + i * es, element(c, x, scalar));
        }
    }
}

static size_t reads(const void *ctx, const simcuda_launch *launch, void **params, simcuda_range *out, size_t max)
{
    const mctx *c = ctx;
    size_t es = aten_dtype_size(c->t);
    aten_runs r = aten_runs_start(out, max);
    aten_runs_add(&r, params[0], c->meta_bytes);
    if (c->has_scalar) {
        aten_runs_buffer(&r);
        aten_runs_add(&r, params[3], aten_dtype_size(c->opmath));
    }
    for (unsigned b = 0; b < launch->grid[0] && b < ATEN_MT_MAX_BLOCKS; b++) {
        int64_t lo, hi;
        int tensor = block(c, params, b, &lo, &hi);
        for (int k = 0; k < c->r_args && hi > lo; k++) {
            aten_runs_buffer(&r);
            aten_runs_add(&r, address(c, params, k, tensor) + lo * es, (size_t)(hi - lo) * es);
        }
    }
    return aten_runs_count(&r);
}

/* ---- recognising the instantiation ---- */

static bool parse_op(const aten_tmpl *k, int i, mctx *c)
{
    static const struct { const char *prefix; mop op; } ops[] = {
        {"std::plus<", OP_ADD}, {"std::minus<", OP_SUB}, {"std::multiplies<", OP_MUL}, {"std::divides<", OP_DIV},
        {"at::native::Sqrt<", OP_SQRT}, {"at::native::LerpFunctor<", OP_LERP},
    };
    for (size_t j = 0; j < sizeof ops / sizeof *ops; j++) {
        const char *inner;
        aten_tmpl a;
        if (aten_tmpl_starts(k, i, ops[j].prefix, &inner)) {
            c->op = ops[j].op;
            return aten_tmpl_split(inner, &a) && a.n == 1 && aten_tmpl_type(&a, 0) == c->opmath;
        }
    }
    return false;
}

static bool parse_functor(const aten_tmpl *k, mctx *c)
{
    static const struct { const char *prefix; mfunctor f; bool scalar_list; } fs[] = {
        {"at::native::(anonymous namespace)::BinaryOpScalarFunctor<", F_BIN_SCALAR, false},
        {"at::native::(anonymous namespace)::BinaryOpScalarListFunctor<", F_BIN_SCALARLIST, true},
        {"at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<", F_BIN_LIST_ALPHA, false},
        {"at::native::(anonymous namespace)::UnaryOpFunctor<", F_UNARY, false},
        {"at::native::(anonymous namespace)::PointwiseOpScalarFunctor<", F_PW_SCALAR, false},
        {"at::native::(anonymous namespace)::PointwiseOpScalarListFunctor<", F_PW_SCALARLIST, true},
        {"at::native::(anonymous namespace)::TernaryOpScalarFunctor<", F_TERN_SCALAR, false},
    };
    for (size_t j = 0; j < sizeof fs / sizeof *fs; j++) {
        const char *inner;
        aten_tmpl a;
        long depth, r, res;
        if (!aten_tmpl_starts(k, 1, fs[j].prefix, &inner))
            continue;
        if (!aten_tmpl_split(inner, &a) || a.n != 4 || !aten_tmpl_int(&a, 1, &depth) || !aten_tmpl_int(&a, 2, &r) ||
            !aten_tmpl_int(&a, 3, &res) || depth != c->depth || r < 1 || r > depth || res < 0 || res >= depth)
            return false;
        c->functor = fs[j].f;
        c->t = aten_tmpl_type(&a, 0);
        c->r_args = (int)r;
        c->res = (int)res;
        if (fs[j].scalar_list != c->scalar_list || !aten_dtype_is_float(c->t))
            return false;
        c->opmath = c->t == ATEN_DOUBLE ? ATEN_DOUBLE : ATEN_FLOAT;
        static const int needs[] = {[F_BIN_SCALAR] = 1, [F_BIN_SCALARLIST] = 1, [F_BIN_LIST_ALPHA] = 2, [F_UNARY] = 1,
                                    [F_PW_SCALAR] = 3, [F_PW_SCALARLIST] = 3, [F_TERN_SCALAR] = 2};
        return c->r_args == needs[c->functor];
    }
    return false;
}

static bool parse_meta(const aten_tmpl *k, mctx *c)
{
    const char *inner;
    aten_tmpl a;
    long d;
    if (aten_tmpl_starts(k, 0, "at::native::(anonymous namespace)::TensorListMetadata<", &inner)) {
        c->scalar_list = false;
        if (!aten_tmpl_split(inner, &a) || a.n != 1 || !aten_tmpl_int(&a, 0, &d))
            return false;
    } else if (aten_tmpl_starts(k, 0, "at::native::(anonymous namespace)::TensorListScalarListMetadata<", &inner)) {
        c->scalar_list = true;
        if (!aten_tmpl_split(inner, &a) || a.n != 2 || !aten_tmpl_int(&a, 1, &d))
            return false;
        c->opmath = aten_tmpl_type(&a, 0);
    } else {
        return false;
    }
    c->depth = (int)d;
    return d >= 1 && d <= ATEN_MT_MAX_DEPTH;
}

bool aten_multi_tensor_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s;
    aten_tmpl k;
    mctx c = {0};
    if (!aten_starts(demangled, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<", &s) ||
        !aten_tmpl_split(s, &k) || k.n < 3 || k.n > 4 || !parse_meta(&k, &c))
        return false;
    aten_dtype sl_type = c.opmath;
    if (!parse_functor(&k, &c) || (c.scalar_list && sl_type != c.opmath) || !parse_op(&k, 2, &c))
        return false;
    c.has_scalar = k.n == 4;
    if (c.has_scalar && aten_tmpl_type(&k, 3) != c.opmath)
        return false;
    bool wants_scalar = c.functor == F_BIN_SCALAR || c.functor == F_BIN_LIST_ALPHA || c.functor == F_PW_SCALAR ||
                        c.functor == F_TERN_SCALAR;
    bool op_fits = c.functor == F_UNARY ? c.op == OP_SQRT : c.functor == F_TERN_SCALAR ? c.op == OP_LERP
                                                                                         : c.op <= OP_DIV;
    if (wants_scalar != c.has_scalar || !op_fits)
        return false;
    c.meta_bytes = c.scalar_list ? ATEN_SL_BYTES(c.depth, aten_dtype_size(c.opmath)) : ATEN_TL_BYTES(c.depth);
    mctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx,
                   .params = {c.meta_bytes, 1, 1, c.has_scalar ? aten_dtype_size(c.opmath) : 0, 0}};
    return aten_bind(&t, out);
}
