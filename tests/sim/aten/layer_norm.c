/* Layer norm forward and backward (preload/aten/abi_layer_norm.h), one row
 * of N elements a block, in T_ACC (float for half, bfloat16 and float):
 *   moments: Welford over the row (mean, m2), var = m2 / N,
 *            rstd = 1 / sqrt(max(var, 0) + eps)
 *   forward: y = gamma * (rstd * (x - mean)) + beta    (vectorized kernel)
 *            y = (x - mean) * rstd * gamma + beta       (LayerNormForward)
 *   dX:      rstd / N * (N * gamma * dy - sum(dy * gamma)
 *                        - (x - mean) * rstd * sum(dy * gamma * xhat))
 *   dgamma[j] = sum_i dy * (x - mean) * rstd, dbeta[j] = sum_i dy
 * A multiply feeding an add is one fused multiply-add, as nvcc emits it.
 * The RMS-norm instantiations and partial GammaBeta reductions are not
 * twinned. */
#include "aten.h"
#include "abi_layer_norm.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum lkind { L_VEC, L_MOMENTS, L_FORWARD, L_GRAD_INPUT, L_GAMMA_BETA } lkind;

typedef struct lctx {
    lkind kind;
    aten_dtype t, acc;
} lctx;

static double rnd(const lctx *c, double x) { return c->acc == ATEN_DOUBLE ? x : (double)(float)x; }
static double fused(const lctx *c, double a, double b, double acc)
{
    return c->acc == ATEN_DOUBLE ? fma(a, b, acc) : (double)fmaf((float)a, (float)b, (float)acc);
}
static double rsqrt_acc(const lctx *c, double x) { return rnd(c, 1.0 / sqrt(x)); }

static int64_t p_int(void **p, int i, size_t size)
{
    if (size == 4) {
        int32_t v;
        memcpy(&v, p[i], 4);
        return v;
    }
    int64_t v;
    memcpy(&v, p[i], 8);
    return v;
}
static char *p_ptr(void **p, int i) { char *v; memcpy(&v, p[i], 8); return v; }
static double p_acc(const lctx *c, void **p, int i) { return aten_load_double(c->acc, p[i]); }

static double ld(aten_dtype t, const char *base, int64_t i) { return aten_load_double(t, base + i * (int64_t)aten_dtype_size(t)); }
static void st(aten_dtype t, char *base, int64_t i, double v) { aten_store_double(t, base + i * (int64_t)aten_dtype_size(t), v); }

/* Welford over a row: mean and rstd. */
static void moments(const lctx *c, const char *x, int64_t n, double eps, double *mean, double *rstd)
{
    double m = 0, m2 = 0;
    for (int64_t j = 0; j < n; j++) {
        double v = ld(c->t, x, j), delta = rnd(c, v - m);
        m = rnd(c, m + rnd(c, delta / (double)(j + 1)));
        m2 = fused(c, delta, rnd(c, v - m), m2);
    }
    double var = n ? rnd(c, m2 / (double)n) : NAN;
    *mean = m;
    *rstd = rsqrt_acc(c, rnd(c, (var > 0 ? var : 0) + eps));
}

static void run_vec(const lctx *c, const simcuda_launch *l, void **p)
{
    int64_t n = p_int(p, ATEN_LN_VEC_N, 4);
    double eps = p_acc(c, p, ATEN_LN_VEC_EPS);
    const char *x = p_ptr(p, ATEN_LN_VEC_X), *g = p_ptr(p, ATEN_LN_VEC_GAMMA), *b = p_ptr(p, ATEN_LN_VEC_BETA);
    char *mean = p_ptr(p, ATEN_LN_VEC_MEAN), *rstd = p_ptr(p, ATEN_LN_VEC_RSTD), *y = p_ptr(p, ATEN_LN_VEC_Y);
    size_t es = aten_dtype_size(c->t);
    for (unsigned i = 0; i < l->grid[0]; i++) {
        double m, r;
        const char *xi = x + (int64_t)i * n * es;
        moments(c, xi, n, eps, &m, &r);
        for (int64_t j = 0; j < n; j++) {
            double v = rnd(c, r * rnd(c, ld(c->t, xi, j) - m));
            if (g && b)
                v = fused(c, ld(c->t, g, j), v, ld(c->t, b, j));
            else if (g)
                v = rnd(c, ld(c->t, g, j) * v);
            st(c->t, y + (int64_t)i * n * es, j, v);
        }
        if (mean)
            st(c->acc, mean, i, m);
        if (rstd)
            st(c->acc, rstd, i, r);
    }
}

static void run_moments(const lctx *c, const simcuda_launch *l, void **p)
{
    int64_t n = p_int(p, ATEN_LN_MOM_N, 8);
    double eps = p_acc(c, p, ATEN_LN_MOM_EPS);
    const char *x = p_ptr(p, ATEN_LN_MOM_X);
    char *mean = p_ptr(p, ATEN_LN_MOM_MEAN), *rstd = p_ptr(p, ATEN_LN_MOM_RSTD);
    int64_t rows = p_int(p, ATEN_LN_MOM_M, 8);
    (void)l;
    for (int64_t i = 0; i < rows; i++) {
        double m, r;
        moments(c, x + (int64_t)i * n * (int64_t)aten_dtype_size(c->t), n, eps, &m, &r);
        st(c->acc, mean, i, m);
        st(c->acc, rstd, i, r);
    }
}

static void run_forward(const lctx *c, const simcuda_launch *l, void **p)
{
    int64_t n = p_int(p, ATEN_LN_FWD_N, 8);
    const char *x = p_ptr(p, ATEN_LN_FWD_X), *mean = p_ptr(p, ATEN_LN_FWD_MEAN), *rstd = p_ptr(p, ATEN_LN_FWD_RSTD);
    const char *g = p_ptr(p, ATEN_LN_FWD_GAMMA), *b = p_ptr(p, ATEN_LN_FWD_BETA);
    char *y = p_ptr(p, ATEN_LN_FWD_Y);
    int64_t rows = p_int(p, ATEN_LN_FWD_M, 8);
    (void)l;
    for (int64_t i = 0; i < rows; i++) {
        double m = ld(c->acc, mean, i), r = ld(c->acc, rstd, i);
        for (int64_t j = 0; j < n; j++) {
            int64_t k = (int64_t)i * n + j;
            double gv = g ? ld(c->t, g, j) : 1, bv = b ? ld(c->t, b, j) : 0;
            st(c->t, y, k, fused(c, rnd(c, rnd(c, ld(c->t, x, k) - m) * r), gv, bv));
        }
    }
}

static void run_grad_input(const lctx *c, const simcuda_launch *l, void **p)
{
    int64_t n = p_int(p, ATEN_LN_GI_N, 4);
    const char *dy = p_ptr(p, ATEN_LN_GI_DY), *x = p_ptr(p, ATEN_LN_GI_X), *mean = p_ptr(p, ATEN_LN_GI_MEAN);
    const char *rstd = p_ptr(p, ATEN_LN_GI_RSTD), *g = p_ptr(p, ATEN_LN_GI_GAMMA);
    char *dx = p_ptr(p, ATEN_LN_GI_DX);
    for (unsigned i = 0; i < l->grid[0]; i++) {
        double m = ld(c->acc, mean, i), r = ld(c->acc, rstd, i), s1 = 0, s2 = 0;
        int64_t row = (int64_t)i * n;
        for (int64_t j = 0; j < n; j++) {
            double gv = g ? ld(c->t, g, j) : 1, dg = rnd(c, ld(c->t, dy, row + j) * gv);
            s1 = rnd(c, s1 + dg);
            s2 = fused(c, rnd(c, dg * rnd(c, ld(c->t, x, row + j) - m)), r, s2);
        }
        double fh = (double)n, term1 = rnd(c, rnd(c, 1.0 / fh) * r);
        for (int64_t j = 0; j < n; j++) {
            double gv = g ? ld(c->t, g, j) : 1;
            double v = rnd(c, rnd(c, fh * gv) * ld(c->t, dy, row + j));
            v = fused(c, -rnd(c, rnd(c, ld(c->t, x, row + j) - m) * r), s2, v);
            v = rnd(c, rnd(c, v - s1) * term1);
            st(c->t, dx, row + j, v);
        }
    }
}

static void run_gamma_beta(const lctx *c, const simcuda_launch *l, void **p)
{
    int64_t m = p_int(p, ATEN_LN_GB_M, 8), n = p_int(p, ATEN_LN_GB_N, 8);
    const char *dy = p_ptr(p, ATEN_LN_GB_DY), *x = p_ptr(p, ATEN_LN_GB_X);
    const char *mean = p_ptr(p, ATEN_LN_GB_MEAN), *rstd = p_ptr(p, ATEN_LN_GB_RSTD);
    char *dg = p_ptr(p, ATEN_LN_GB_DGAMMA), *db = p_ptr(p, ATEN_LN_GB_DBETA);
    (void)l;
    for (int64_t j = 0; j < n; j++) {
        double sg = 0, sb = 0;
        for (int64_t i = 0; i < m; i++) {
            double d = ld(c->t, dy, i * n + j);
            sg = fused(c, d, rnd(c, rnd(c, ld(c->t, x, i * n + j) - ld(c->acc, mean, i)) * ld(c->acc, rstd, i)), sg);
            sb = rnd(c, sb + d);
        }
        if (dg)
            st(c->t, dg, j, sg);
        if (db)
            st(c->t, db, j, sb);
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const lctx *c = ctx;
    switch (c->kind) {
    case L_VEC: run_vec(c, l, p); break;
    case L_MOMENTS: run_moments(c, l, p); break;
    case L_FORWARD: run_forward(c, l, p); break;
    case L_GRAD_INPUT: run_grad_input(c, l, p); break;
    case L_GAMMA_BETA: run_gamma_beta(c, l, p); break;
    }
}

/* What each kernel reads: rows x cols of T from the listed pointers, the
 * per-row statistics, and per-column gamma/beta. */
static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const lctx *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    size_t es = aten_dtype_size(c->t), as = aten_dtype_size(c->acc);
    int64_t rows = l->grid[0], n = 0;
    int mats[2] = {-1, -1}, stats[2] = {-1, -1}, cols[2] = {-1, -1};
    switch (c->kind) {
    case L_VEC:
        n = p_int(p, ATEN_LN_VEC_N, 4);
        mats[0] = ATEN_LN_VEC_X, cols[0] = ATEN_LN_VEC_GAMMA, cols[1] = ATEN_LN_VEC_BETA;
        break;
    case L_MOMENTS:
        rows = p_int(p, ATEN_LN_MOM_M, 8), n = p_int(p, ATEN_LN_MOM_N, 8);
        mats[0] = ATEN_LN_MOM_X;
        break;
    case L_FORWARD:
        rows = p_int(p, ATEN_LN_FWD_M, 8), n = p_int(p, ATEN_LN_FWD_N, 8);
        mats[0] = ATEN_LN_FWD_X, stats[0] = ATEN_LN_FWD_MEAN, stats[1] = ATEN_LN_FWD_RSTD;
        cols[0] = ATEN_LN_FWD_GAMMA, cols[1] = ATEN_LN_FWD_BETA;
        break;
    case L_GRAD_INPUT:
        n = p_int(p, ATEN_LN_GI_N, 4);
        mats[0] = ATEN_LN_GI_DY, mats[1] = ATEN_LN_GI_X, stats[0] = ATEN_LN_GI_MEAN, stats[1] = ATEN_LN_GI_RSTD;
        cols[0] = ATEN_LN_GI_GAMMA;
        break;
    case L_GAMMA_BETA:
        rows = p_int(p, ATEN_LN_GB_M, 8), n = p_int(p, ATEN_LN_GB_N, 8);
        mats[0] = ATEN_LN_GB_DY, mats[1] = ATEN_LN_GB_X, stats[0] = ATEN_LN_GB_MEAN, stats[1] = ATEN_LN_GB_RSTD;
        break;
    }
    if (rows <= 0 || n <= 0)
        return 0;
    for (int k = 0; k < 2; k++) {
        if (mats[k] >= 0) {
            aten_runs_buffer(&r);
            aten_runs_add(&r, p_ptr(p, mats[k]), (size_t)(rows * n) * es);
        }
        if (stats[k] >= 0) {
            aten_runs_buffer(&r);
            aten_runs_add(&r, p_ptr(p, stats[k]), (size_t)rows * as);
        }
        if (cols[k] >= 0) {
            aten_runs_buffer(&r);
            aten_runs_add(&r, p_ptr(p, cols[k]), (size_t)n * es);
        }
    }
    return aten_runs_count(&r);
}

/* ---- recognising the instantiation ---- */

bool aten_layer_norm_resolve(const char *demangled, simcuda_twin *out)
{
    static const struct { const char *name; lkind kind; int nargs; } ks[] = {
        {"vectorized_layer_norm_kernel<", L_VEC, 3},
        {"RowwiseMomentsCUDAKernel<", L_MOMENTS, 3},
        {"LayerNormForwardCUDAKernel<", L_FORWARD, 3},
        {"layer_norm_grad_input_kernel<", L_GRAD_INPUT, 3},
        {"layer_norm_grad_input_kernel_vectorized<", L_GRAD_INPUT, 3},
        {"GammaBetaBackwardCUDAKernelTemplate<", L_GAMMA_BETA, 8},
    };
    const char *s;
    if (!aten_starts(demangled, "void at::native::(anonymous namespace)::", &s))
        return false;
    for (size_t k = 0; k < sizeof ks / sizeof *ks; k++) {
        const char *inner;
        aten_tmpl t;
        if (!aten_starts(s, ks[k].name, &inner))
            continue;
        if (!aten_tmpl_split(inner, &t) || t.n != ks[k].nargs)
            return false;
        lctx c = {ks[k].kind, aten_tmpl_type(&t, 0), aten_tmpl_type(&t, 1)};
        /* rms_norm = false; GammaBeta: partial_reduction = false */
        if (!aten_dtype_is_float(c.t) || (c.acc != ATEN_FLOAT && c.acc != ATEN_DOUBLE) ||
            !aten_tmpl_is(&t, t.n - 1, "false"))
            return false;
        lctx *ctx = malloc(sizeof *ctx);
        if (!ctx)
            return false;
        *ctx = c;
        size_t acc = aten_dtype_size(c.acc);
        size_t vec[] = {ATEN_LN_VEC_SIZES(acc)}, mom[] = {ATEN_LN_MOM_SIZES(acc)}, fwd[] = {ATEN_LN_FWD_SIZES},
               gi[] = {ATEN_LN_GI_SIZES}, gb[] = {ATEN_LN_GB_SIZES};
        const size_t *sizes[] = {[L_VEC] = vec, [L_MOMENTS] = mom, [L_FORWARD] = fwd, [L_GRAD_INPUT] = gi, [L_GAMMA_BETA] = gb};
        const size_t nsizes[] = {[L_VEC] = ATEN_LN_VEC_NPARAMS, [L_MOMENTS] = ATEN_LN_MOM_NPARAMS, [L_FORWARD] = ATEN_LN_FWD_NPARAMS,
                                 [L_GRAD_INPUT] = ATEN_LN_GI_NPARAMS, [L_GAMMA_BETA] = ATEN_LN_GB_NPARAMS};
        aten_twin tw = {.run = run, .reads = reads, .ctx = ctx};
        memcpy(tw.params, sizes[c.kind], nsizes[c.kind] * sizeof(size_t));
        return aten_bind(&tw, out);
    }
    return false;
}
