/* softmax / log_softmax over the last dimension, forward and backward
 * (preload/aten/abi_softmax.h): the persistent softmax_warp_* kernels and
 * the block-per-row cunn_SoftMax* kernels. Each row is computed in the
 * accumulate type (float for half, bfloat16 and float):
 *   forward: m = max(x); s = sum(exp(x - m));
 *            softmax exp(x - m) / s, log_softmax (x - m) - log(s)
 *   backward: g - y * sum(g) (softmax) or g - exp(y) * sum(g) (log), g
 *            being what ATen passes as the gradient: grad * output for
 *            softmax (softmax_backward_cuda_out multiplies first).
 * Masked variants are not twinned. */
#include "aten.h"
#include "abi_softmax.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum skind { S_WARP_FWD, S_WARP_BWD, S_CUNN_FWD, S_CUNN_BWD } skind;

typedef struct sctx {
    skind kind;
    bool is_log;
    aten_dtype in, out, acc; /* cunn: in = scalar_t, out = outscalar_t */
    bool classes64;           /* cunn: the classes parameter is int64_t */
} sctx;

static double rnd(const sctx *c, double x) { return c->acc == ATEN_DOUBLE ? x : (double)(float)x; }
static double fexp(const sctx *c, double x) { return c->acc == ATEN_DOUBLE ? exp(x) : (double)expf((float)x); }
static double flog(const sctx *c, double x) { return c->acc == ATEN_DOUBLE ? log(x) : (double)logf((float)x); }
static double fused(const sctx *c, double a, double b, double acc)
{
    return c->acc == ATEN_DOUBLE ? fma(a, b, acc) : (double)fmaf((float)a, (float)b, (float)acc);
}

static int32_t p_i32(void **p, int i) { int32_t v; memcpy(&v, p[i], 4); return v; }
static int64_t p_i64(void **p, int i) { int64_t v; memcpy(&v, p[i], 8); return v; }
static char *p_ptr(void **p, int i) { char *v; memcpy(&v, p[i], 8); return v; }

static void forward_row(const sctx *c, char *dst, const char *src, int64_t n)
{
    size_t is = aten_dtype_size(c->in), os = aten_dtype_size(c->out);
    double m = -INFINITY, s = 0;
    for (int64_t j = 0; j < n; j++) {
        double x = aten_load_double(c->in, src + j * is);
        m = m > x ? m : x;
    }
    for (int64_t j = 0; j < n; j++)
        s = rnd(c, s + fexp(c, rnd(c, aten_load_double(c->in, src + j * is) - m)));
    double ls = flog(c, s);
    for (int64_t j = 0; j < n; j++) {
        double d = rnd(c, aten_load_double(c->in, src + j * is) - m);
        aten_store_double(c->out, dst + j * os, c->is_log ? rnd(c, d - ls) : rnd(c, fexp(c, d) / s));
    }
}

/* Backward, both forms: sum(g); g - y * sum (softmax, where ATen passes
 * g = grad * output) or g - exp(y) * sum (log_softmax). The warp kernels
 * read g and y as `gy` and write gi as `gi_t`; the cunn kernels the
 * other way round. */
static void backward_row(const sctx *c, aten_dtype gy, aten_dtype gi_t, char *gi, const char *g, const char *y, int64_t n)
{
    size_t ys = aten_dtype_size(gy), is = aten_dtype_size(gi_t);
    double s = 0;
    for (int64_t j = 0; j < n; j++)
        s = rnd(c, s + aten_load_double(gy, g + j * ys));
    for (int64_t j = 0; j < n; j++) {
        double gj = aten_load_double(gy, g + j * ys), yj = aten_load_double(gy, y + j * ys);
        aten_store_double(gi_t, gi + j * is, fused(c, c->is_log ? -fexp(c, yj) : -yj, s, gj));
    }
}

/* Rows, their length and the distance between rows (elements). */
static void shape(const sctx *c, const simcuda_launch *l, void **p, int64_t *rows, int64_t *n, int64_t *stride)
{
    switch (c->kind) {
    case S_WARP_FWD:
        *rows = p_i32(p, ATEN_SMW_FWD_BATCH);
        *stride = p_i32(p, ATEN_SMW_FWD_STRIDE);
        *n = p_i32(p, ATEN_SMW_FWD_ELEMENTS);
        break;
    case S_WARP_BWD:
        *rows = p_i32(p, ATEN_SMW_BWD_BATCH);
        *stride = p_i32(p, ATEN_SMW_BWD_STRIDE);
        *n = p_i32(p, ATEN_SMW_BWD_ELEMENTS);
        break;
    default: {
        int last = c->kind == S_CUNN_FWD ? ATEN_SMC_FWD_CLASSES : ATEN_SMC_BWD_CLASSES;
        *rows = l->grid[0];
        *n = *stride = c->classes64 ? p_i64(p, last) : p_i32(p, last);
    }
    }
    if (*rows < 0 || *n < 0)
        *rows = *n = 0;
}

static void run(const void *ctx, const simcuda_launch *launch, void **p)
{
    const sctx *c = ctx;
    int64_t rows, n, stride;
    shape(c, launch, p, &rows, &n, &stride);
    size_t is = aten_dtype_size(c->in), os = aten_dtype_size(c->out);
    for (int64_t r = 0; r < rows; r++) {
        switch (c->kind) {
        case S_WARP_FWD:
            forward_row(c, p_ptr(p, ATEN_SMW_FWD_DST) + r * stride * os, p_ptr(p, ATEN_SMW_FWD_SRC) + r * stride * is, n);
            break;
        case S_CUNN_FWD:
            forward_row(c, p_ptr(p, ATEN_SMC_FWD_OUTPUT) + r * stride * os, p_ptr(p, ATEN_SMC_FWD_INPUT) + r * stride * is, n);
            break;
        case S_WARP_BWD:
            backward_row(c, c->in, c->out, p_ptr(p, ATEN_SMW_BWD_GRAD_INPUT) + r * stride * os,
                         p_ptr(p, ATEN_SMW_BWD_GRAD) + r * stride * is, p_ptr(p, ATEN_SMW_BWD_OUTPUT) + r * stride * is, n);
            break;
        case S_CUNN_BWD:
            backward_row(c, c->out, c->in, p_ptr(p, ATEN_SMC_BWD_GRAD_INPUT) + r * stride * is,
                         p_ptr(p, ATEN_SMC_BWD_GRAD_OUTPUT) + r * stride * os, p_ptr(p, ATEN_SMC_BWD_OUTPUT) + r * stride * os, n);
            break;
        }
    }
}

static size_t reads(const void *ctx, const simcuda_launch *launch, void **p, simcuda_range *out, size_t max)
{
    const sctx *c = ctx;
    int64_t rows, n, stride;
    shape(c, launch, p, &rows, &n, &stride);
    aten_runs r = aten_runs_start(out, max);
    int srcs[2] = {-1, -1};
    size_t es = aten_dtype_size(c->in);
    switch (c->kind) {
    case S_WARP_FWD: srcs[0] = ATEN_SMW_FWD_SRC; break;
    case S_CUNN_FWD: srcs[0] = ATEN_SMC_FWD_INPUT; break;
    case S_WARP_BWD: srcs[0] = ATEN_SMW_BWD_GRAD; srcs[1] = ATEN_SMW_BWD_OUTPUT; break;
    case S_CUNN_BWD: srcs[0] = ATEN_SMC_BWD_OUTPUT; srcs[1] = ATEN_SMC_BWD_GRAD_OUTPUT; es = aten_dtype_size(c->out); break;
    }
    for (int k = 0; k < 2 && srcs[k] >= 0; k++) {
        aten_runs_buffer(&r);
        for (int64_t row = 0; row < rows && n > 0; row++)
            aten_runs_add(&r, p_ptr(p, srcs[k]) + row * stride * es, (size_t)n * es);
    }
    return aten_runs_count(&r);
}

/* ---- recognising the instantiation ---- */

static bool bool_arg(const aten_tmpl *t, int i, bool *v)
{
    *v = aten_tmpl_is(t, i, "true");
    return *v || aten_tmpl_is(t, i, "false");
}

static bool parse_warp(const char *s, sctx *c)
{
    aten_tmpl t;
    bool masked;
    if (!aten_tmpl_split(s, &t) || t.n != 7 || !bool_arg(&t, 4, &c->is_log) || !bool_arg(&t, 5, &masked) || masked)
        return false;
    c->in = aten_tmpl_type(&t, 0);
    c->out = aten_tmpl_type(&t, 1);
    c->acc = aten_tmpl_type(&t, 2);
    return aten_dtype_is_float(c->in) && aten_dtype_is_float(c->out) && (c->acc == ATEN_FLOAT || c->acc == ATEN_DOUBLE);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* cunn_SoftMax{Forward,Backward}[Smem]<ILP, scalar, acc, out, Epilogue> and
 * cunn_SoftMaxForwardReg<scalar, acc, out, Epilogue, index_t, ILP>. */
static bool parse_cunn(const char *s, const char *demangled, sctx *c, const char *fwd_epi, const char *log_epi)
{
    aten_tmpl t;
    if (!aten_tmpl_split(s, &t) || (t.n != 5 && t.n != 6))
        return false;
    int first = t.n == 5 ? 1 : 0;
    c->in = aten_tmpl_type(&t, first);
    c->acc = aten_tmpl_type(&t, first + 1);
    c->out = aten_tmpl_type(&t, first + 2);
    c->is_log = aten_tmpl_is(&t, first + 3, log_epi);
    if (!c->is_log && !aten_tmpl_is(&t, first + 3, fwd_epi))
        return false;
    c->classes64 = ends_with(demangled, ", long)");
    if (!c->classes64 && !ends_with(demangled, ", int)"))
        return false;
    return aten_dtype_is_float(c->in) && aten_dtype_is_float(c->out) && (c->acc == ATEN_FLOAT || c->acc == ATEN_DOUBLE);
}

bool aten_softmax_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s;
    sctx c = {0};
    bool ok;
    static const size_t fwd[] = {ATEN_SMW_FWD_SIZES}, bwd[] = {ATEN_SMW_BWD_SIZES};
    const size_t *sizes;
    size_t nsizes;
    if (aten_starts(demangled, "void (anonymous namespace)::softmax_warp_forward<", &s)) {
        c.kind = S_WARP_FWD;
        ok = parse_warp(s, &c);
        sizes = fwd, nsizes = ATEN_SMW_FWD_NPARAMS;
    } else if (aten_starts(demangled, "void (anonymous namespace)::softmax_warp_backward<", &s)) {
        c.kind = S_WARP_BWD;
        ok = parse_warp(s, &c);
        sizes = bwd, nsizes = ATEN_SMW_BWD_NPARAMS;
    } else if (aten_starts(demangled, "void at::native::(anonymous namespace)::cunn_SoftMaxForward<", &s) ||
               aten_starts(demangled, "void at::native::(anonymous namespace)::cunn_SoftMaxForwardSmem<", &s) ||
               aten_starts(demangled, "void at::native::(anonymous namespace)::cunn_SoftMaxForwardReg<", &s)) {
        c.kind = S_CUNN_FWD;
        ok = parse_cunn(s, demangled, &c, "at::native::(anonymous namespace)::SoftMaxForwardEpilogue",
                        "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue");
        sizes = NULL, nsizes = 3;
    } else if (aten_starts(demangled, "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<", &s) ||
               aten_starts(demangled, "void at::native::(anonymous namespace)::cunn_SoftMaxBackwardSmem<", &s)) {
        c.kind = S_CUNN_BWD;
        ok = parse_cunn(s, demangled, &c, "at::native::(anonymous namespace)::SoftMaxBackwardEpilogue",
                        "at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue");
        sizes = NULL, nsizes = 4;
    } else {
        return false;
    }
    if (!ok)
        return false;
    sctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx};
    for (size_t i = 0; i < nsizes; i++)
        t.params[i] = sizes ? sizes[i] : (i + 1 < nsizes ? 8 : (c.classes64 ? 8 : 4));
    return aten_bind(&t, out);
}
