/* The fused SGD step (FusedSgdMathFunctor, SGD(fused=True);
 * preload/aten/abi_multi_tensor.h), element by element as FusedSgdKernel
 * computes it (double hyperparameters, float opmath state, each
 * assignment rounding to its variable's type):
 *   skip all when found_inf && *found_inf == 1; lr = *lr_ptr if given
 *   g /= *grad_scale (stored back); g = -g when maximize
 *   g += weight_decay * p                                 (when != 0)
 *   buf = first step ? g : momentum * buf + (1 - dampening) * g (double)
 *   g = nesterov ? g + momentum * buf : buf                (d = 3)
 *   p -= lr * g */
#include "aten.h"
#include "abi_multi_tensor.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sgctx {
    aten_dtype t;
    int depth;
} sgctx;

static double f32(double x) { return (double)(float)x; }
static double pd(void **p, int i) { double v; memcpy(&v, p[i], 8); return v; }
static bool pb(void **p, int i) { return *(const unsigned char *)p[i] != 0; }
static const char *pp(void **p, int i) { const char *v; memcpy(&v, p[i], 8); return v; }

typedef struct sgd_h {
    double wd, momentum, lr, dampening;
    bool nesterov, maximize, first;
    const char *grad_scale;
} sgd_h;

static void element(const sgctx *c, const sgd_h *h, char *a[3], int64_t off)
{
    double p = aten_load_double(c->t, a[0] + off), g = aten_load_double(c->t, a[1] + off);
    if (h->grad_scale) {
        g = f32(g / (double)aten_load_float(ATEN_FLOAT, h->grad_scale));
        aten_store_double(c->t, a[1] + off, g);
    }
    if (h->maximize)
        g = -g;
    if (h->wd != 0)
        g = f32(g + h->wd * p);
    if (c->depth > 2) {
        double buf = h->first ? g : h->momentum * aten_load_double(c->t, a[2] + off) + (1 - h->dampening) * g;
        aten_store_double(c->t, a[2] + off, f32(buf));
        g = h->nesterov ? f32(g + h->momentum * buf) : f32(buf);
    }
    aten_store_double(c->t, a[0] + off, f32(p - h->lr * g));
}

static void walk(const sgctx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    const char *found_inf = pp(p, ATEN_FSGD_FOUND_INF), *lr_ptr = pp(p, ATEN_FSGD_LR_PTR);
    sgd_h h = {pd(p, ATEN_FSGD_WEIGHT_DECAY), pd(p, ATEN_FSGD_MOMENTUM), pd(p, ATEN_FSGD_LR), pd(p, ATEN_FSGD_DAMPENING),
               pb(p, ATEN_FSGD_NESTEROV), pb(p, ATEN_FSGD_MAXIMIZE), pb(p, ATEN_FSGD_FIRST_STEP), pp(p, ATEN_FSGD_GRAD_SCALE)};
    if (reads) {
        aten_runs_add(reads, found_inf, 4);
        aten_runs_buffer(reads);
        aten_runs_add(reads, lr_ptr, 4);
        aten_runs_buffer(reads);
        aten_runs_add(reads, h.grad_scale, 4);
    } else {
        if (found_inf && aten_load_float(ATEN_FLOAT, found_inf) == 1.0f)
            return;
        if (lr_ptr)
            h.lr = aten_load_float(ATEN_FLOAT, lr_ptr);
    }
    size_t es = aten_dtype_size(c->t);
    for (unsigned b = 0; b < l->grid[0] && b < ATEN_MT_MAX_BLOCKS; b++) {
        uint16_t tensor;
        int32_t chunk;
        int64_t n;
        memcpy(&tensor, (const char *)p[0] + ATEN_TL_B2T(c->depth) + 2 * b, 2);
        memcpy(&chunk, (const char *)p[0] + ATEN_TL_B2C(c->depth) + 4 * b, 4);
        memcpy(&n, (const char *)p[0] + ATEN_TL_NUMEL(c->depth) + 8 * (size_t)tensor, 8);
        int64_t lo = (int64_t)chunk * ATEN_MT_CHUNK, hi = lo + ATEN_MT_CHUNK < n ? lo + ATEN_MT_CHUNK : n;
        char *a[3] = {0};
        for (int k = 0; k < c->depth; k++)
            memcpy(&a[k], (const char *)p[0] + ATEN_TL_ADDRESSES(c->depth, k) + 8 * (size_t)tensor, 8);
        if (reads) {
            for (int k = 0; k < c->depth && hi > lo; k++) {
                if (k == 2 && h.first)
                    break; /* the first step does not read the buffer */
                aten_runs_buffer(reads);
                aten_runs_add(reads, a[k] + lo * (int64_t)es, (size_t)(hi - lo) * es);
            }
            continue;
        }
        for (int64_t i = lo; i < hi; i++)
            element(c, &h, a, i * (int64_t)es);
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p) { walk(ctx, l, p, NULL); }

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    aten_runs r = aten_runs_start(out, max);
    walk(ctx, l, p, &r);
    return aten_runs_count(&r);
}

bool aten_fused_sgd_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *inner;
    aten_tmpl k, f;
    long depth;
    if (!aten_starts(demangled, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<", &s) ||
        !aten_tmpl_split(s, &k) || k.n != 12 ||
        !aten_tmpl_starts(&k, 1, "at::native::(anonymous namespace)::FusedSgdMathFunctor<", &inner) ||
        !aten_tmpl_split(inner, &f) || f.n != 2 || !aten_tmpl_int(&f, 1, &depth) || (depth != 2 && depth != 3))
        return false;
    char meta[96];
    snprintf(meta, sizeof meta, "at::native::(anonymous namespace)::TensorListMetadata<%ld>", depth);
    static const char *const rest[] = {"double", "double", "float*", "double", "double", "bool", "bool", "bool", "float*", "float*"};
    if (!aten_tmpl_is(&k, 0, meta))
        return false;
    for (int i = 0; i < 10; i++)
        if (!aten_tmpl_is(&k, 2 + i, rest[i]))
            return false;
    sgctx c = {aten_tmpl_type(&f, 0), (int)depth};
    if (!aten_dtype_is_float(c.t) || c.t == ATEN_DOUBLE)
        return false;
    sgctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx,
                   .params = {ATEN_TL_BYTES(c.depth), 1, 8, 8, 8, 8, 8, 1, 1, 1, 8, 8, 0}};
    return aten_bind(&t, out);
}
