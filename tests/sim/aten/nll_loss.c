/* nll_loss with mean/sum reduction over a 2-D input (cross_entropy's
 * second half; preload/aten/abi_nll_loss.h):
 *   forward:  output = -sum_i w[t_i] * input[i, t_i] (over t_i != ignore),
 *             divided by total_weight = sum_i w[t_i] when size_average,
 *             both folded in acc_t (float for half/bfloat16/float);
 *             w * input is a scalar_t product, as c10::Half's operator*.
 *   backward: grad_input[i, t_i] = w[t_i] * g, g = -(grad_output /
 *             total_weight) or -grad_output, in scalar_t.
 * A target out of [0, n_classes) trips a device assert on a GPU; here its
 * row is left alone. */
#include "aten.h"
#include "abi_nll_loss.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct nctx {
    bool backward;
    aten_dtype t, acc, index;
} nctx;

static char *p_ptr(void **p, int i) { char *v; memcpy(&v, p[i], 8); return v; }
static int64_t p_i64(void **p, int i) { int64_t v; memcpy(&v, p[i], 8); return v; }
static int32_t p_i32(void **p, int i) { int32_t v; memcpy(&v, p[i], 4); return v; }
static bool p_bool(void **p, int i) { return *(const unsigned char *)p[i] != 0; }

/* A value rounded to type t (scalar_t arithmetic). */
static double in_type(aten_dtype t, double x)
{
    unsigned char b[8];
    aten_store_double(t, b, x);
    return aten_load_double(t, b);
}

static int64_t target(const nctx *c, const char *tg, int64_t i)
{
    return aten_value_int(aten_load(c->index, tg + i * (int64_t)aten_dtype_size(c->index)));
}

static void forward(const nctx *c, void **p)
{
    const char *in = p_ptr(p, ATEN_NLL_FWD_INPUT), *tg = p_ptr(p, ATEN_NLL_FWD_TARGET), *w = p_ptr(p, ATEN_NLL_FWD_WEIGHTS);
    int64_t nframe = p_i64(p, ATEN_NLL_FWD_NFRAME), ndim = p_i64(p, ATEN_NLL_FWD_NDIM);
    int64_t ncls = p_i64(p, ATEN_NLL_FWD_NCLASSES), ignore = p_i64(p, ATEN_NLL_FWD_IGNORE);
    size_t es = aten_dtype_size(c->t);
    double out = 0, total = 0;
    for (int64_t i = 0; i < nframe; i++) {
        int64_t t = target(c, tg, i);
        if (t == ignore || t < 0 || t >= ncls)
            continue;
        double wt = w ? aten_load_double(c->t, w + t * es) : 1;
        out = in_type(c->acc, out - in_type(c->t, aten_load_double(c->t, in + (i * ndim + t) * es) * wt));
        total = in_type(c->acc, total + wt);
    }
    aten_store_double(c->t, p_ptr(p, ATEN_NLL_FWD_TOTAL_WEIGHT), total);
    aten_store_double(c->t, p_ptr(p, ATEN_NLL_FWD_OUTPUT), p_bool(p, ATEN_NLL_FWD_SIZE_AVERAGE) ? in_type(c->acc, out / total) : out);
}

static void backward(const nctx *c, void **p)
{
    const char *tg = p_ptr(p, ATEN_NLL_BWD_TARGET), *w = p_ptr(p, ATEN_NLL_BWD_WEIGHTS);
    char *gi = p_ptr(p, ATEN_NLL_BWD_GRAD_INPUT);
    int64_t nframe = p_i32(p, ATEN_NLL_BWD_NFRAME), ndim = p_i32(p, ATEN_NLL_BWD_NDIM);
    int64_t ncls = p_i64(p, ATEN_NLL_BWD_NCLASSES), ignore = p_i64(p, ATEN_NLL_BWD_IGNORE);
    size_t es = aten_dtype_size(c->t);
    double go = aten_load_double(c->t, p_ptr(p, ATEN_NLL_BWD_GRAD_OUTPUT));
    double g = p_bool(p, ATEN_NLL_BWD_SIZE_AVERAGE) ? in_type(c->t, go / aten_load_double(c->t, p_ptr(p, ATEN_NLL_BWD_TOTAL_WEIGHT))) : go;
    g = -g;
    for (int64_t i = 0; i < nframe; i++) {
        int64_t t = target(c, tg, i);
        if (t == ignore || t < 0 || t >= ncls)
            continue;
        double v = w ? in_type(c->t, aten_load_double(c->t, w + t * es) * g) : g;
        aten_store_double(c->t, gi + (i * ndim + t) * es, v);
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const nctx *c = ctx;
    (void)l;
    if (c->backward)
        backward(c, p);
    else
        forward(c, p);
}

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const nctx *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    size_t es = aten_dtype_size(c->t), is = aten_dtype_size(c->index);
    int tgi = c->backward ? ATEN_NLL_BWD_TARGET : ATEN_NLL_FWD_TARGET;
    const char *tg = p_ptr(p, tgi);
    const char *w = p_ptr(p, c->backward ? ATEN_NLL_BWD_WEIGHTS : ATEN_NLL_FWD_WEIGHTS);
    int64_t nframe = c->backward ? p_i32(p, ATEN_NLL_BWD_NFRAME) : p_i64(p, ATEN_NLL_FWD_NFRAME);
    int64_t ndim = c->backward ? p_i32(p, ATEN_NLL_BWD_NDIM) : p_i64(p, ATEN_NLL_FWD_NDIM);
    int64_t ncls = p_i64(p, c->backward ? ATEN_NLL_BWD_NCLASSES : ATEN_NLL_FWD_NCLASSES);
    int64_t ignore = p_i64(p, c->backward ? ATEN_NLL_BWD_IGNORE : ATEN_NLL_FWD_IGNORE);
    (void)l;
    if (nframe <= 0)
        return 0;
    aten_runs_add(&r, tg, (size_t)nframe * is);
    if (c->backward) {
        aten_runs_buffer(&r);
        aten_runs_add(&r, p_ptr(p, ATEN_NLL_BWD_GRAD_OUTPUT), es);
        aten_runs_buffer(&r);
        aten_runs_add(&r, p_ptr(p, ATEN_NLL_BWD_TOTAL_WEIGHT), es);
    }
    for (int pass = 0; pass < 2; pass++) { /* the input's picked elements, then the weights' */
        const char *base = pass == 0 ? (c->backward ? NULL : p_ptr(p, ATEN_NLL_FWD_INPUT)) : w;
        if (!base)
            continue;
        aten_runs_buffer(&r);
        for (int64_t i = 0; i < nframe; i++) {
            int64_t t = target(c, tg, i);
            if (t != ignore && t >= 0 && t < ncls)
                aten_runs_add(&r, base + (pass == 0 ? i * ndim + t : t) * (int64_t)es, es);
        }
    }
    return aten_runs_count(&r);
}

bool aten_nll_loss_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s;
    aten_tmpl t;
    nctx c = {0};
    if (aten_starts(demangled, "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<", &s)) {
        if (!aten_tmpl_split(s, &t) || t.n != 3)
            return false;
        c.acc = aten_tmpl_type(&t, 1);
        c.index = aten_tmpl_type(&t, 2);
    } else if (aten_starts(demangled, "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<", &s)) {
        if (!aten_tmpl_split(s, &t) || t.n != 2)
            return false;
        c.backward = true;
        c.index = aten_tmpl_type(&t, 1);
    } else {
        return false;
    }
    c.t = aten_tmpl_type(&t, 0);
    if (!c.backward && c.acc != ATEN_FLOAT && c.acc != ATEN_DOUBLE)
        return false;
    if (!aten_dtype_is_float(c.t) || !aten_dtype_is_int(c.index))
        return false;
    nctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx};
    static const size_t fwd[] = {ATEN_NLL_FWD_SIZES}, bwd[] = {ATEN_NLL_BWD_SIZES};
    if (c.backward)
        memcpy(tw.params, bwd, sizeof bwd);
    else
        memcpy(tw.params, fwd, sizeof fwd);
    return aten_bind(&tw, out);
}
