/* torch._foreach_norm with ord 2 (clip_grad_norm_'s per-tensor norms;
 * preload/aten/abi_multi_tensor.h): LpNormFunctor writes each chunk's sum
 * of squares (folded in out_opmath_t, float for half/bfloat16/float), and
 * lpnorm_cleanup sums a tensor's chunks and stores the square root. */
#include "aten.h"
#include "abi_multi_tensor.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct nctx {
    bool cleanup;
    aten_dtype t, out, opmath;
} nctx;

static double rnd(const nctx *c, double x) { return c->opmath == ATEN_DOUBLE ? x : (double)(float)x; }

static const char *ptr_at(const void *base, size_t off) { const char *v; memcpy(&v, (const char *)base + off, 8); return v; }

/* The block's tensor and element range, as in multi_tensor.c. */
static int block(void **p, unsigned b, int64_t *lo, int64_t *hi, int32_t *chunk)
{
    uint16_t tensor;
    int64_t n;
    memcpy(&tensor, (const char *)p[0] + ATEN_TL_B2T(1) + 2 * b, 2);
    memcpy(chunk, (const char *)p[0] + ATEN_TL_B2C(1) + 4 * b, 4);
    memcpy(&n, (const char *)p[0] + ATEN_TL_NUMEL(1) + 8 * (size_t)tensor, 8);
    *lo = (int64_t)*chunk * ATEN_MT_CHUNK;
    *hi = *lo + ATEN_MT_CHUNK < n ? *lo + ATEN_MT_CHUNK : n;
    return tensor;
}

static void run_partials(const nctx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    char *partials = (char *)ptr_at(p[2], 0);
    const char *offsets = ptr_at(p[3], 0);
    int32_t start;
    memcpy(&start, (const char *)p[0] + ATEN_TL_START(1), 4);
    size_t es = aten_dtype_size(c->t), os = aten_dtype_size(c->opmath);
    for (unsigned b = 0; b < l->grid[0] && b < ATEN_MT_MAX_BLOCKS; b++) {
        int64_t lo, hi, base;
        int32_t chunk;
        int tensor = block(p, b, &lo, &hi, &chunk);
        const char *x = ptr_at(p[0], ATEN_TL_ADDRESSES(1, 0) + 8 * (size_t)tensor);
        memcpy(&base, offsets + 8 * (size_t)(start + tensor), 8);
        if (reads) {
            aten_runs_buffer(reads);
            aten_runs_add(reads, offsets + 8 * (size_t)(start + tensor), 8);
            aten_runs_buffer(reads);
            aten_runs_add(reads, x + lo * (int64_t)es, (size_t)(hi - lo) * es);
            continue;
        }
        double s = 0;
        for (int64_t i = lo; i < hi; i++) {
            double v = aten_load_double(c->t, x + i * (int64_t)es);
            s = c->opmath == ATEN_DOUBLE ? fma(v, v, s) : (double)fmaf((float)v, (float)v, (float)s);
        }
        aten_store_double(c->opmath, partials + (base + chunk) * (int64_t)os, s);
    }
}

static void run_cleanup(const nctx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    const char *partials = ptr_at(p[0], 0), *offsets = ptr_at(p[2], 0);
    int32_t first;
    memcpy(&first, p[3], 4);
    size_t os = aten_dtype_size(c->opmath);
    for (unsigned b = 0; b < l->grid[0] && b < ATEN_MT_MAX_TENSORS(1); b++) {
        int64_t from, to;
        memcpy(&from, offsets + 8 * (size_t)(first + (int)b), 8);
        memcpy(&to, offsets + 8 * (size_t)(first + (int)b + 1), 8);
        if (reads) {
            aten_runs_buffer(reads);
            aten_runs_add(reads, offsets + 8 * (size_t)(first + (int)b), 16);
            if (to > from) {
                aten_runs_buffer(reads);
                aten_runs_add(reads, partials + from * (int64_t)os, (size_t)(to - from) * os);
            }
            continue;
        }
        double s = 0;
        for (int64_t i = from; i < to; i++)
            s = rnd(c, s + aten_load_double(c->opmath, partials + i * (int64_t)os));
        double r = c->opmath == ATEN_DOUBLE ? sqrt(s) : (double)sqrtf((float)s);
        aten_store_double(c->out, (char *)ptr_at(p[1], 8 * (size_t)b), r);
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const nctx *c = ctx;
    if (c->cleanup)
        run_cleanup(c, l, p, NULL);
    else
        run_partials(c, l, p, NULL);
}

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const nctx *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    if (c->cleanup)
        run_cleanup(c, l, p, &r);
    else
        run_partials(c, l, p, &r);
    return aten_runs_count(&r);
}

static bool bind(const nctx *c, simcuda_twin *out, const size_t *sizes)
{
    nctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = *c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx};
    for (size_t i = 0; sizes[i]; i++)
        t.params[i] = sizes[i];
    return aten_bind(&t, out);
}

static bool opmath_of(nctx *c)
{
    c->opmath = c->out == ATEN_DOUBLE ? ATEN_DOUBLE : ATEN_FLOAT;
    return aten_dtype_is_float(c->t) && aten_dtype_is_float(c->out);
}

bool aten_foreach_norm_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *inner;
    aten_tmpl k, f;
    nctx c = {0};
    if (aten_starts(demangled, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<", &s)) {
        /* <TensorListMetadata<1>, LpNormFunctor<T, (NormType)2, out_t, 1, 1, 0>, out_opmath_t*, long const*> */
        if (!aten_tmpl_split(s, &k) || k.n != 4 || !aten_tmpl_is(&k, 0, "at::native::(anonymous namespace)::TensorListMetadata<1>") ||
            !aten_tmpl_starts(&k, 1, "at::native::LpNormFunctor<", &inner) || !aten_tmpl_split(inner, &f) || f.n != 6 ||
            !aten_tmpl_is(&f, 1, "(at::native::NormType)2") || !aten_tmpl_is(&f, 3, "1") || !aten_tmpl_is(&f, 4, "1") ||
            !aten_tmpl_is(&k, 3, "long const*"))
            return false;
        c.t = aten_tmpl_type(&f, 0);
        c.out = aten_tmpl_type(&f, 2);
        if (!opmath_of(&c) || strncmp(k.arg[2], aten_dtype_name(c.opmath), k.len[2] - 1) != 0 || k.arg[2][k.len[2] - 1] != '*')
            return false;
        return bind(&c, out, (const size_t[]){ATEN_TL_BYTES(1), 1, 8, 8, 0});
    }
    if (aten_starts(demangled, "void at::native::lpnorm_cleanup<", &s)) {
        /* <T, (NormType)2, out_t, apply_root, out_opmath_t> */
        if (!aten_tmpl_split(s, &k) || k.n != 5 || !aten_tmpl_is(&k, 1, "(at::native::NormType)2") ||
            !aten_tmpl_is(&k, 3, "true"))
            return false;
        c.cleanup = true;
        c.t = aten_tmpl_type(&k, 0);
        c.out = aten_tmpl_type(&k, 2);
        if (!opmath_of(&c) || aten_tmpl_type(&k, 4) != c.opmath)
            return false;
        return bind(&c, out, (const size_t[]){8, ATEN_MT_ADDRESSES_BYTES, 8, 4, 0});
    }
    return false;
}
