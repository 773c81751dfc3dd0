/* reduce_kernel<nt, ovec, ReduceOp<scalar_t, ops_t, uint32_t, out_t, vt0,
 * ivec>>(ReduceOp): TensorIterator reductions (preload/aten/abi_reduce.h).
 *
 * For each output (output_calc over the kept dims) the inputs along the
 * reduced dims (input_calc) are folded left to right in ATen's accumulate
 * type (float for half, bfloat16 and float; double for double), then
 * projected and stored; accumulate / final_output / acc_buf / base_idx
 * behave as in Reduce.cuh. The GPU splits a fold across threads, so a sum
 * may differ from it in the last bits; max/min/argmax are exact. The ops:
 * sum (func_wrapper_t of sum_functor), mean (MeanOps), amax/amin
 * (MaxNanFunctor/MinNanFunctor), max/min with index (MaxOps/MinOps),
 * argmax/argmin, 2-norm (NormTwoOps), var/std (WelfordOps). */
#include "aten.h"
#include "abi_reduce.h"
#include "dtype.h"
#include "offset_calc.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum rkind { R_SUM, R_MEAN, R_MAXNAN, R_MINNAN, R_MAX, R_MIN, R_ARGMAX, R_ARGMIN, R_NORM2, R_WELFORD } rkind;

typedef struct rctx {
    rkind kind;
    aten_dtype in, out, acc; /* acc: ATEN_FLOAT, ATEN_DOUBLE or the element type (max/min) */
    size_t ops_size, arg_size, arg_align, cfg; /* cfg: ReduceConfig's offset */
} rctx;

/* An accumulator: a value, an index (max/min/argmax) or Welford's moments. */
typedef struct acc_t {
    double v, m2, nf;
    int64_t idx;
    bool set; /* max/min: whether any value was folded */
} acc_t;

static double acc_round(const rctx *c, double x) { return c->acc == ATEN_DOUBLE ? x : (double)(float)x; }

static bool is_nan(double x) { return x != x; }

/* GreaterOrNan / LessOrNan of SharedReduceOps.h: NaN wins, ties keep the
 * lower index. */
static bool keeps(bool greater, double a, int64_t ia, double b, int64_t ib)
{
    if (is_nan(a))
        return is_nan(b) ? ia < ib : true;
    if (a == b)
        return ia < ib;
    return greater ? a > b : a < b;
}

static void fold(const rctx *c, acc_t *a, double x, int64_t idx)
{
    switch (c->kind) {
    case R_SUM:
    case R_MEAN:
        a->v = acc_round(c, a->v + x);
        break;
    case R_NORM2: /* acc + x * x, which nvcc contracts to one fma */
        a->v = c->acc == ATEN_DOUBLE ? fma(x, x, a->v) : (double)fmaf((float)x, (float)x, (float)a->v);
        break;
    case R_MAXNAN: /* (a != a || a > b) ? a : b */
        a->v = (is_nan(a->v) || a->v > x) ? a->v : x;
        break;
    case R_MINNAN:
        a->v = (is_nan(a->v) || a->v < x) ? a->v : x;
        break;
    case R_MAX: case R_ARGMAX: case R_MIN: case R_ARGMIN: {
        bool greater = c->kind == R_MAX || c->kind == R_ARGMAX;
        if (!a->set || !keeps(greater, a->v, a->idx, x, idx)) {
            a->v = x;
            a->idx = idx;
        }
        a->set = true;
        break;
    }
    case R_WELFORD: { /* WelfordOps::reduce */
        double nf = a->nf + 1, delta = acc_round(c, x - a->v);
        double mean = acc_round(c, a->v + acc_round(c, delta / nf));
        double delta2 = acc_round(c, x - mean);
        a->m2 = acc_round(c, a->m2 + acc_round(c, delta * delta2));
        a->v = mean;
        a->nf = nf;
        break;
    }
    }
}

static const unsigned char *at(void **params, size_t off) { return (const unsigned char *)params[0] + off; }
static int32_t rd_i32(void **p, size_t off) { int32_t v; memcpy(&v, at(p, off), 4); return v; }
static int64_t rd_i64(void **p, size_t off) { int64_t v; memcpy(&v, at(p, off), 8); return v; }
static double rd_f64(void **p, size_t off) { double v; memcpy(&v, at(p, off), 8); return v; }
static char *rd_ptr(void **p, size_t off) { char *v; memcpy(&v, at(p, off), 8); return v; }

/* A scalar of the accumulate type stored in the params (ident, factor). */
static double rd_acc(const rctx *c, void **p, size_t off)
{
    return c->acc == ATEN_DOUBLE ? rd_f64(p, off) : aten_load_double(c->acc, at(p, off));
}

/* The accumulator's identity as the launch passes it. */
static acc_t ident(const rctx *c, void **p)
{
    size_t off = ATEN_RO_IDENT(c->ops_size, c->arg_align);
    acc_t a = {0};
    switch (c->kind) {
    case R_WELFORD:
        a.v = rd_acc(c, p, off);
        a.m2 = rd_acc(c, p, off + (c->acc == ATEN_DOUBLE ? 8 : 4));
        a.nf = rd_acc(c, p, off + (c->acc == ATEN_DOUBLE ? 24 : 12));
        break;
    case R_MAX: case R_MIN: case R_ARGMAX: case R_ARGMIN:
        a.v = aten_load_double(c->acc, at(p, off));
        a.idx = rd_i64(p, off + 8);
        a.set = true;
        break;
    default:
        a.v = rd_acc(c, p, off);
    }
    return a;
}

/* ops.combine(a, b) for partial results (accumulate into out/acc_buf). */
static acc_t combine(const rctx *c, acc_t a, acc_t b)
{
    switch (c->kind) {
    case R_SUM: case R_MEAN: case R_NORM2:
        a.v = acc_round(c, a.v + b.v);
        return a;
    case R_MAXNAN: case R_MINNAN:
        fold(c, &a, b.v, 0);
        return a;
    default: /* pairs and Welford never accumulate in their output */
        return b;
    }
}

typedef struct rlaunch {
    aten_oc in, out;
    int num_inputs, num_outputs, noutputs;
    const char *src;
    char *dst[2];
    char *acc_buf;
    int64_t base_idx;
    bool accumulate, final_output;
} rlaunch;

static bool decode(const rctx *c, void **p, rlaunch *l)
{
    size_t cfg = c->cfg;
    l->num_inputs = rd_i32(p, cfg + ATEN_RC_NUM_INPUTS);
    l->num_outputs = rd_i32(p, cfg + ATEN_RC_NUM_OUTPUTS);
    l->src = rd_ptr(p, ATEN_RO_SRC(cfg));
    l->dst[0] = rd_ptr(p, ATEN_RO_DST(cfg));
    l->dst[1] = rd_ptr(p, ATEN_RO_DST(cfg) + 8);
    l->acc_buf = rd_ptr(p, ATEN_RO_ACC_BUF(cfg));
    l->base_idx = rd_i64(p, ATEN_RO_BASE_IDX(cfg));
    l->accumulate = *at(p, ATEN_RO_ACCUMULATE(cfg)) != 0;
    l->final_output = *at(p, ATEN_RO_FINAL_OUTPUT(cfg)) != 0;
    l->noutputs = rd_i32(p, ATEN_RO_NOUTPUTS(cfg));
    return l->num_inputs >= 0 && l->num_outputs >= 0 && aten_oc_decode(&l->in, at(p, ATEN_RO_INPUT_CALC(cfg)), 1) &&
           aten_oc_decode(&l->out, at(p, ATEN_RO_OUTPUT_CALC(cfg)), 2);
}

/* Folds one output's inputs, starting from ident. */
static acc_t reduce_one(const rctx *c, void **p, const rlaunch *l, uint32_t in_base)
{
    acc_t a = ident(c, p);
    aten_oc_walk w;
    aten_oc_walk_start(&w, &l->in);
    for (int i = 0; i < l->num_inputs; i++, aten_oc_walk_next(&w)) {
        double x = aten_load_double(c->in, l->src + in_base + w.offsets[0]);
        fold(c, &a, x, (int64_t)i + l->base_idx);
    }
    return a;
}

static void store(aten_dtype t, char *p, double v) { aten_store_double(t, p, v); }

/* ops.project and set_results: one or two outputs. */
static void set_results(const rctx *c, const rlaunch *l, void **p, acc_t a, uint32_t off)
{
    switch (c->kind) {
    case R_MEAN: {
        size_t factor_off = 0; /* MeanOps { factor_t factor; } */
        double f = rd_acc(c, p, factor_off);
        store(c->out, l->dst[0] + off, acc_round(c, a.v * f));
        break;
    }
    case R_NORM2:
        store(c->out, l->dst[0] + off, c->acc == ATEN_DOUBLE ? sqrt(a.v) : (double)sqrtf((float)a.v));
        break;
    case R_ARGMAX: case R_ARGMIN: {
        int64_t idx = a.idx;
        memcpy(l->dst[0] + off, &idx, 8);
        break;
    }
    case R_MAX: case R_MIN: { /* pair<T, int64_t>: the index at off / sizeof(T) * 8 */
        if (l->noutputs >= 1)
            store(c->out, l->dst[0] + off, a.v);
        if (l->noutputs >= 2) {
            int64_t idx = a.idx;
            memcpy(l->dst[1] + off / aten_dtype_size(c->out) * 8, &idx, 8);
        }
        break;
    }
    case R_WELFORD: {
        double correction = rd_acc(c, p, 0);
        bool take_sqrt = *at(p, ATEN_WELFORD_TAKE_SQRT(c->acc == ATEN_DOUBLE ? 8 : 4)) != 0;
        double divisor = a.nf > correction ? acc_round(c, a.nf - correction) : 0;
        double var = acc_round(c, a.m2 / divisor);
        if (take_sqrt)
            var = c->acc == ATEN_DOUBLE ? sqrt(var) : (double)sqrtf((float)var);
        if (l->noutputs >= 1)
            store(c->out, l->dst[0] + off, var);
        if (l->noutputs >= 2)
            store(c->out, l->dst[1] + off, a.v);
        break;
    }
    default:
        store(c->out, l->dst[0] + off, a.v);
    }
}

static bool scalar_arg(const rctx *c) { return c->kind == R_SUM || c->kind == R_MEAN || c->kind == R_NORM2 || c->kind == R_MAXNAN || c->kind == R_MINNAN; }

static void run(const void *ctx, const simcuda_launch *launch, void **params)
{
    const rctx *c = ctx;
    rlaunch l;
    (void)launch;
    if (!decode(c, params, &l))
        return;
    for (int o = 0; o < l.num_outputs; o++) {
        uint32_t offs[2];
        aten_oc_offsets(&l.out, (uint32_t)o, offs);
        acc_t a = reduce_one(c, params, &l, offs[1]);
        if (!l.acc_buf && scalar_arg(c)) {
            char *out = l.dst[0] + offs[0];
            if (l.accumulate)
                a = combine(c, (acc_t){.v = aten_load_double(c->out, out)}, a);
            if (l.final_output)
                set_results(c, &l, params, a, offs[0]);
            else
                store(c->out, out, a.v);
        } else if (l.acc_buf && scalar_arg(c)) {
            /* acc_buf holds arg_t where out holds out_t: offset scaled */
            char *acc = l.acc_buf + (size_t)offs[0] * c->arg_size / aten_dtype_size(c->out);
            if (l.accumulate)
                a = combine(c, (acc_t){.v = aten_load_double(c->acc, acc)}, a);
            if (l.final_output)
                set_results(c, &l, params, a, offs[0]);
            else
                store(c->acc, acc, a.v);
        } else {
            set_results(c, &l, params, a, offs[0]);
        }
    }
}

static size_t reads(const void *ctx, const simcuda_launch *launch, void **params, simcuda_range *out, size_t max)
{
    const rctx *c = ctx;
    rlaunch l;
    (void)launch;
    aten_runs r = aten_runs_start(out, max);
    aten_runs_add(&r, params[0], ATEN_RO_BYTES(c->cfg));
    if (!decode(c, params, &l))
        return aten_runs_count(&r);
    size_t esize = aten_dtype_size(c->in);
    aten_runs_buffer(&r);
    for (int o = 0; o < l.num_outputs; o++) {
        uint32_t offs[2];
        aten_oc_offsets(&l.out, (uint32_t)o, offs);
        aten_oc_walk w;
        aten_oc_walk_start(&w, &l.in);
        for (int i = 0; i < l.num_inputs; i++, aten_oc_walk_next(&w))
            aten_runs_add(&r, l.src + offs[1] + w.offsets[0], esize);
    }
    if (l.accumulate && scalar_arg(c)) { /* the partial result read back */
        aten_runs_buffer(&r);
        for (int o = 0; o < l.num_outputs; o++) {
            uint32_t offs[2];
            aten_oc_offsets(&l.out, (uint32_t)o, offs);
            if (l.acc_buf)
                aten_runs_add(&r, l.acc_buf + (size_t)offs[0] * c->arg_size / aten_dtype_size(c->out), c->arg_size);
            else
                aten_runs_add(&r, l.dst[0] + offs[0], aten_dtype_size(c->out));
        }
    }
    return aten_runs_count(&r);
}

/* ---- recognising the instantiation ---- */

static bool acc_ok(aten_dtype t) { return t == ATEN_FLOAT || t == ATEN_DOUBLE; }

/* ops_t: fills kind, acc, ops_size, arg size/alignment. */
static bool parse_ops(const aten_tmpl *t, int i, rctx *c)
{
    const char *inner;
    aten_tmpl a;
    if (aten_tmpl_starts(t, i, "at::native::func_wrapper_t<", &inner)) {
        aten_tmpl f;
        if (!aten_tmpl_split(inner, &a) || a.n != 2)
            return false;
        c->ops_size = 1;
        if (aten_tmpl_starts(&a, 1, "at::native::sum_functor<", &inner)) {
            if (!aten_tmpl_split(inner, &f) || f.n != 3 || !strstr(a.arg[1], "{lambda("))
                return false;
            c->kind = R_SUM;
            c->acc = aten_tmpl_type(&f, 1);
            if (!acc_ok(c->acc))
                return false;
        } else if (aten_tmpl_starts(&a, 1, "at::native::MaxNanFunctor<", &inner) ||
                   aten_tmpl_starts(&a, 1, "at::native::MinNanFunctor<", &inner)) {
            c->kind = strstr(a.arg[1], "MaxNan") == a.arg[1] + 12 ? R_MAXNAN : R_MINNAN;
            if (!aten_tmpl_split(inner, &f) || f.n != 1 || !aten_dtype_is_float(c->acc = aten_tmpl_type(&f, 0)))
                return false;
        } else {
            return false;
        }
        c->arg_size = c->arg_align = aten_dtype_size(c->acc);
        return true;
    }
    static const struct { const char *prefix; rkind kind; int nargs; int acc_arg; } ops[] = {
        {"at::native::MeanOps<", R_MEAN, 4, 1},       {"at::native::NormTwoOps<", R_NORM2, 4, 1},
        {"at::native::MaxOps<", R_MAX, 1, 0},         {"at::native::MinOps<", R_MIN, 1, 0},
        {"at::native::ArgMaxOps<", R_ARGMAX, 1, 0},   {"at::native::ArgMinOps<", R_ARGMIN, 1, 0},
        {"at::native::WelfordOps<", R_WELFORD, 4, 1},
    };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        if (!aten_tmpl_starts(t, i, ops[k].prefix, &inner))
            continue;
        if (!aten_tmpl_split(inner, &a) || a.n != ops[k].nargs)
            return false;
        c->kind = ops[k].kind;
        c->acc = aten_tmpl_type(&a, ops[k].acc_arg);
        switch (c->kind) {
        case R_MEAN: /* MeanOps<scalar, acc, factor, out>: { factor_t factor; } */
            if (!acc_ok(c->acc) || aten_tmpl_type(&a, 2) != c->acc)
                return false;
            c->ops_size = c->arg_size = c->arg_align = aten_dtype_size(c->acc);
            return true;
        case R_NORM2:
            if (!acc_ok(c->acc))
                return false;
            c->ops_size = 1;
            c->arg_size = c->arg_align = aten_dtype_size(c->acc);
            return true;
        case R_WELFORD: /* WelfordOps<scalar, acc, int, pair<out, out>> */
            if (!acc_ok(c->acc) || !aten_tmpl_is(&a, 2, "int"))
                return false;
            c->ops_size = ATEN_WELFORD_OPS_BYTES(aten_dtype_size(c->acc));
            c->arg_size = ATEN_WELFORD_DATA_BYTES(aten_dtype_size(c->acc));
            c->arg_align = aten_dtype_size(c->acc);
            return true;
        default: /* pair<T, int64_t> */
            if (!aten_dtype_is_float(c->acc))
                return false;
            c->ops_size = 1;
            c->arg_size = 16;
            c->arg_align = 8;
            return true;
        }
    }
    return false;
}

bool aten_reduce_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s;
    aten_tmpl k, r;
    if (!aten_starts(demangled, "void at::native::reduce_kernel<", &s) || !aten_tmpl_split(s, &k) || k.n != 3 ||
        !aten_tmpl_starts(&k, 2, "at::native::ReduceOp<", &s) || !aten_tmpl_split(s, &r) || r.n != 6 ||
        !aten_tmpl_is(&r, 2, "unsigned int"))
        return false;
    rctx c = {0};
    c.in = aten_tmpl_type(&r, 0);
    c.out = aten_tmpl_type(&r, 3);
    if (!aten_dtype_is_float(c.in) || c.out == ATEN_NONE || !parse_ops(&r, 1, &c))
        return false;
    bool arg_out = c.kind == R_ARGMAX || c.kind == R_ARGMIN;
    if (arg_out ? c.out != ATEN_LONG : !aten_dtype_is_float(c.out))
        return false;
    c.cfg = ATEN_RO_CONFIG(c.ops_size, c.arg_size, c.arg_align);
    rctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx, .params = {ATEN_RO_BYTES(c.cfg), 0}};
    return aten_bind(&t, out);
}
