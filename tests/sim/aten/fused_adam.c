/* The fused Adam/AdamW step (FusedAdamMathFunctor, fused=True;
 * preload/aten/abi_multi_tensor.h), element by element as fused_adam_utils
 * computes it: hyperparameters are doubles, the state float (opmath), so
 * each line is evaluated in double where a double takes part and rounded
 * to float on assignment:
 *   skip all when found_inf && *found_inf == 1
 *   bc1 = 1 - beta1^step, bc2_sqrt = sqrt(1 - beta2^step)   (double, then
 *         float), step = *state_steps[tensor]
 *   grad /= *grad_scale (stored back)  ; grad = -grad when maximize
 *   AdamW: param -= lr * wd * param    ; Adam: grad += param * wd
 *   exp_avg = beta1 * exp_avg + (1 - beta1) * grad
 *   exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad * grad
 *   step_size = lr / bc1 ; denom = sqrt(exp_avg_sq) / bc2_sqrt + eps
 *   param -= step_size * exp_avg / denom
 * amsgrad (depth 5) is not twinned. */
#include "aten.h"
#include "abi_multi_tensor.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct actx {
    aten_dtype t;
    bool adamw;
} actx;

static double f32(double x) { return (double)(float)x; }
static double pd(void **p, int i) { double v; memcpy(&v, p[i], 8); return v; }
static const char *pp(void **p, int i) { const char *v; memcpy(&v, p[i], 8); return v; }
static const char *meta_ptr(void **p, size_t off) { const char *v; memcpy(&v, (const char *)p[0] + off, 8); return v; }

typedef struct hyper {
    double lr, beta1, beta2, wd, eps;
    bool maximize;
    const char *grad_scale;
} hyper;

static void element(const actx *c, const hyper *h, char *a[4], int64_t i, double bc1, double bc2_sqrt)
{
    size_t es = aten_dtype_size(c->t);
    double param = aten_load_double(c->t, a[0] + i * (int64_t)es), grad = aten_load_double(c->t, a[1] + i * (int64_t)es);
    if (h->grad_scale) {
        grad = f32(grad / (double)aten_load_float(ATEN_FLOAT, h->grad_scale));
        aten_store_double(c->t, a[1] + i * (int64_t)es, grad);
        grad = aten_load_double(c->t, a[1] + i * (int64_t)es); /* through the element type, as ATen casts */
    }
    if (h->maximize)
        grad = -grad;
    double m = aten_load_double(c->t, a[2] + i * (int64_t)es), v = aten_load_double(c->t, a[3] + i * (int64_t)es);
    if (h->wd != 0) {
        if (c->adamw)
            param = f32(param - h->lr * h->wd * param);
        else
            grad = f32(grad + param * h->wd);
    }
    m = f32(h->beta1 * m + (1 - h->beta1) * grad);
    v = f32(h->beta2 * v + (1 - h->beta2) * grad * grad);
    double step_size = f32(h->lr / bc1);
    double denom = f32(f32(f32(sqrt(v)) / bc2_sqrt) + h->eps);
    param = f32(param - f32(f32(step_size * m) / denom));
    aten_store_double(c->t, a[0] + i * (int64_t)es, param);
    aten_store_double(c->t, a[2] + i * (int64_t)es, m);
    aten_store_double(c->t, a[3] + i * (int64_t)es, v);
}

static void walk(const actx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    const char *found_inf = pp(p, ATEN_FADAM_FOUND_INF);
    if (reads && found_inf)
        aten_runs_add(reads, found_inf, 4);
    if (!reads && found_inf && aten_load_float(ATEN_FLOAT, found_inf) == 1.0f)
        return;
    hyper h = {pd(p, ATEN_FADAM_LR), pd(p, ATEN_FADAM_BETA1), pd(p, ATEN_FADAM_BETA2), pd(p, ATEN_FADAM_WEIGHT_DECAY),
               pd(p, ATEN_FADAM_EPS), *(const unsigned char *)p[ATEN_FADAM_MAXIMIZE] != 0, pp(p, ATEN_FADAM_GRAD_SCALE)};
    const char *lr_ptr = pp(p, ATEN_FADAM_LR_PTR);
    if (reads) {
        aten_runs_buffer(reads);
        aten_runs_add(reads, lr_ptr, 4);
        aten_runs_buffer(reads);
        aten_runs_add(reads, h.grad_scale, 4);
    } else if (lr_ptr) {
        h.lr = aten_load_float(ATEN_FLOAT, lr_ptr);
    }
    size_t es = aten_dtype_size(c->t);
    for (unsigned b = 0; b < l->grid[0] && b < ATEN_MT_MAX_BLOCKS; b++) {
        uint16_t tensor;
        int32_t chunk;
        int64_t n;
        memcpy(&tensor, (const char *)p[0] + ATEN_FO_B2T(4) + 2 * b, 2);
        memcpy(&chunk, (const char *)p[0] + ATEN_FO_B2C(4) + 4 * b, 4);
        memcpy(&n, (const char *)p[0] + ATEN_FO_NUMEL(4) + 8 * (size_t)tensor, 8);
        int64_t lo = (int64_t)chunk * ATEN_MT_CHUNK, hi = lo + ATEN_MT_CHUNK < n ? lo + ATEN_MT_CHUNK : n;
        const char *step_p = meta_ptr(p, ATEN_FO_STEPS(4) + 8 * (size_t)tensor);
        char *a[4];
        for (int k = 0; k < 4; k++)
            a[k] = (char *)meta_ptr(p, ATEN_FO_ADDRESSES(4, k) + 8 * (size_t)tensor);
        if (reads) {
            aten_runs_buffer(reads);
            aten_runs_add(reads, step_p, 4);
            for (int k = 0; k < 4 && hi > lo; k++) {
                aten_runs_buffer(reads);
                aten_runs_add(reads, a[k] + lo * (int64_t)es, (size_t)(hi - lo) * es);
            }
            continue;
        }
        double step = aten_load_float(ATEN_FLOAT, step_p);
        double bc1 = f32(1 - pow(h.beta1, step)), bc2_sqrt = f32(sqrt(1 - pow(h.beta2, step)));
        for (int64_t i = lo; i < hi; i++)
            element(c, &h, a, i, bc1, bc2_sqrt);
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p) { walk(ctx, l, p, NULL); }

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    aten_runs r = aten_runs_start(out, max);
    walk(ctx, l, p, &r);
    return aten_runs_count(&r);
}

bool aten_fused_adam_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *inner;
    aten_tmpl k, f;
    if (!aten_starts(demangled, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<", &s) ||
        !aten_tmpl_split(s, &k) || k.n != 11 ||
        !aten_tmpl_is(&k, 0, "at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>") ||
        !aten_tmpl_starts(&k, 1, "at::native::(anonymous namespace)::FusedAdamMathFunctor<", &inner) ||
        !aten_tmpl_split(inner, &f) || f.n != 4 || !aten_tmpl_is(&f, 1, "4") || !aten_tmpl_is(&f, 3, "false"))
        return false;
    static const char *const rest[] = {"float const*", "double", "double", "double", "double", "double", "bool",
                                       "float const*", "float const*"};
    for (int i = 0; i < 9; i++)
        if (!aten_tmpl_is(&k, 2 + i, rest[i]))
            return false;
    actx c = {aten_tmpl_type(&f, 0), aten_tmpl_is(&f, 2, "(at::native::ADAM_MODE)1")};
    if (!aten_dtype_is_float(c.t) || c.t == ATEN_DOUBLE || (!c.adamw && !aten_tmpl_is(&f, 2, "(at::native::ADAM_MODE)0")))
        return false;
    actx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx,
                   .params = {ATEN_FO_BYTES(4), 1, 8, 8, 8, 8, 8, 8, 1, 8, 8, 0}};
    return aten_bind(&t, out);
}
