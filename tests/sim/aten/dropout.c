/* ATen's dropout kernels (preload/aten/abi_random.h): fused_dropout_kernel_vec
 * and fused_dropout_kernel, 32-bit indexing, float, double, half, bfloat16,
 * bool or uint8 masks. The keep mask comes from curand_uniform4 exactly as
 * on the GPU (philox.h), so output and mask equal a GPU's bit for bit. */
#include "aten.h"
#include "abi_random.h"
#include "dtype.h"
#include "philox.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct dctx {
    aten_dtype t, mask;
    bool wide;      /* acc_t double */
    bool vec;
    int vec_size;   /* VEC, or 4 (UNROLL) */
    int adims, bdims;
} dctx;

static uint32_t u32at(const char *p, size_t off) { uint32_t v; memcpy(&v, p + off, 4); return v; }
static char *ptr(const char *p) { char *v; memcpy(&v, p + ATEN_TI_DATA, 8); return v; }

/* IndexToOffset: element li's offset (elements), dimension dims-1 fastest. */
static uint32_t to_offset(const char *ti, int dims, uint32_t li)
{
    if (dims < 0)
        dims = (int)u32at(ti, ATEN_TI_DIMS);
    uint32_t off = 0;
    for (int i = dims - 1; i > 0; i--) {
        uint32_t size = u32at(ti, ATEN_TI_SIZES + 4u * (unsigned)i);
        off += (size ? li % size : 0) * u32at(ti, ATEN_TI_STRIDES + 4u * (unsigned)i);
        li = size ? li / size : 0;
    }
    return off + li * u32at(ti, ATEN_TI_STRIDES);
}

typedef struct args {
    char *a, *b, *c;
    const char *ai, *bi;
    double p, scale;
} args;

/* One element: keep = u < p; out = src * keep * scale; mask = keep. */
static void element(const dctx *d, const args *x, float u, uint32_t li)
{
    size_t es = aten_dtype_size(d->t);
    uint32_t ao = to_offset(x->ai, d->vec ? 1 : d->adims, li);
    uint32_t bo = d->vec ? li : to_offset(x->bi, d->bdims, li);
    float keep = d->wide ? (float)((double)u < x->p) : (float)(u < (float)x->p);
    if (d->wide) {
        double src = aten_load_double(d->t, x->a + (size_t)ao * es);
        aten_store_double(d->t, x->b + (size_t)bo * es, src * (double)keep * x->scale);
    } else {
        float src = aten_load_float(d->t, x->a + (size_t)ao * es);
        aten_store_float(d->t, x->b + (size_t)bo * es, src * keep * (float)x->scale);
    }
    aten_store(d->mask, x->c + (size_t)bo * aten_dtype_size(d->mask), (aten_value){.is_int = true, .i = keep != 0});
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const dctx *d = ctx;
    args x = {.a = ptr(p[ATEN_DROPOUT_P_A]), .b = ptr(p[ATEN_DROPOUT_P_B]), .c = ptr(p[ATEN_DROPOUT_P_C]),
              .ai = p[ATEN_DROPOUT_P_A], .bi = p[ATEN_DROPOUT_P_B]};
    uint32_t n;
    memcpy(&n, p[ATEN_DROPOUT_P_N], 4);
    if (d->wide) {
        memcpy(&x.p, p[ATEN_DROPOUT_P_P], 8);
        x.scale = 1.0 / x.p;
    } else {
        float pf;
        memcpy(&pf, p[ATEN_DROPOUT_P_P], 4);
        x.p = pf;
        x.scale = (float)(1.0 / (double)pf); /* acc_t scale = 1.0 / p */
    }
    const char *ph = p[ATEN_DROPOUT_P_PHILOX];
    uint64_t seed, offset;
    memcpy(&seed, ph + ATEN_PHILOX_SEED, 8);
    memcpy(&offset, ph + ATEN_PHILOX_OFFSET, 8);
    if (ph[ATEN_PHILOX_CAPTURED]) {
        uint64_t intra;
        memcpy(&intra, ph + ATEN_PHILOX_INTRAGRAPH, 8);
        memcpy(&seed, (const void *)(uintptr_t)seed, 8);
        memcpy(&offset, (const void *)(uintptr_t)offset, 8);
        offset += intra;
    }
    uint32_t threads = l->grid[0] * l->block[0];
    if (!threads || !n)
        return;
    uint32_t vs = (uint32_t)d->vec_size;
    uint64_t step = (uint64_t)threads * vs;
    uint64_t rounded = d->vec ? n : ((uint64_t)(n - 1) / step + 1) * step;
    for (uint32_t idx = 0; idx < threads; idx++) {
        aten_philox s;
        aten_philox_init(&s, seed, idx, offset);
        for (uint64_t li = d->vec ? (uint64_t)idx * vs : idx; li < rounded; li += step) {
            float u[16];
            uint32_t w[4];
            for (uint32_t j = 0; j < (vs + 3) / 4; j++) {
                aten_philox_next4(&s, w);
                for (int k = 0; k < 4; k++)
                    u[4 * j + (unsigned)k] = aten_curand_uniform(w[k]);
            }
            for (uint32_t ii = 0; ii < vs; ii++) {
                uint64_t e = d->vec ? li + ii : li + (uint64_t)threads * ii;
                if (e < n)
                    element(d, &x, u[ii], (uint32_t)e);
            }
        }
    }
}

/* Reads the source's elements (and, under capture, the seed and offset). */
static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const dctx *d = ctx;
    (void)l;
    const char *ai = p[ATEN_DROPOUT_P_A], *ph = p[ATEN_DROPOUT_P_PHILOX];
    uint32_t dims = u32at(ai, ATEN_TI_DIMS);
    uint64_t last = 0; /* the highest element offset */
    for (uint32_t i = 0; i < dims && i < ATEN_TI_MAX_DIMS; i++) {
        uint32_t size = u32at(ai, ATEN_TI_SIZES + 4u * i);
        if (!size)
            return 0;
        last += (uint64_t)(size - 1) * u32at(ai, ATEN_TI_STRIDES + 4u * i);
    }
    size_t n = 0;
    aten_read_range(out, max, &n, ptr(ai), (size_t)(last + 1) * aten_dtype_size(d->t));
    if (ph[ATEN_PHILOX_CAPTURED]) {
        const char *sp, *op;
        memcpy(&sp, ph + ATEN_PHILOX_SEED, 8);
        memcpy(&op, ph + ATEN_PHILOX_OFFSET, 8);
        aten_read_range(out, max, &n, sp, 8);
        aten_read_range(out, max, &n, op, 8);
    }
    return n;
}

bool aten_dropout_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s = strstr(demangled, "::fused_dropout_kernel_vec<");
    bool vec = s != NULL;
    if (!vec && !(s = strstr(demangled, "::fused_dropout_kernel<")))
        return false;
    aten_tmpl t;
    long adims, v;
    if (!aten_tmpl_split(strchr(s, '<') + 1, &t) || t.n != 6 || !aten_tmpl_is(&t, 2, "unsigned int") ||
        !aten_tmpl_int(&t, 3, &adims) || !aten_tmpl_int(&t, 4, &v))
        return false;
    dctx d = {.t = aten_tmpl_type(&t, 0), .mask = aten_tmpl_type(&t, 5), .vec = vec,
              .vec_size = vec ? (int)v : 4, .adims = (int)adims, .bdims = vec ? 1 : (int)v};
    aten_dtype acc = aten_tmpl_type(&t, 1);
    d.wide = acc == ATEN_DOUBLE;
    if (!aten_dtype_is_float(d.t) || (acc != ATEN_FLOAT && acc != ATEN_DOUBLE) ||
        (d.mask != ATEN_BOOL && d.mask != ATEN_BYTE) || d.vec_size < 1 || d.vec_size > 16 ||
        adims == 0 || adims > (long)ATEN_TI_MAX_DIMS || d.bdims == 0 || d.bdims > (int)ATEN_TI_MAX_DIMS)
        return false;
    dctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = d;
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx,
                    .params = {ATEN_TI_BYTES, ATEN_TI_BYTES, ATEN_TI_BYTES, 4, d.wide ? 8 : 4, ATEN_PHILOX_BYTES, 0}};
    return aten_bind(&tw, out);
}
