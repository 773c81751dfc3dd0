/* torch.cat / torch.stack over contiguous inputs (preload/aten/abi_cat.h):
 * every element of each input of the batch copied, as its opaque bytes,
 * to its place in the output; the vectorized kernel moves whole vectors of
 * elems_per_vec elements the same way. Bit for bit. */
#include "aten.h"
#include "abi_cat.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct cctx {
    unsigned elem, dims, stride_size;
    unsigned per_vec; /* vectorized: elements a vector (else 0) */
} cctx;

static uint32_t u32(const void *base, size_t off) { uint32_t v; memcpy(&v, (const char *)base + off, 4); return v; }
static const char *input(void **p, unsigned i) { const char *v; memcpy(&v, (const char *)p[ATEN_CAT_P_INPUTS] + ATEN_CAT_INPUT + 8 * i, 8); return v; }

/* CatArrIndexToOffset: the output offset (elements) of input element idx. */
static uint32_t element_offset(const cctx *c, void **p, uint32_t dim_size, int concat, uint32_t idx)
{
    uint32_t off = 0;
    for (int d = (int)c->dims - 1; d >= 1; d--) {
        uint32_t size = d == concat ? dim_size : u32(p[ATEN_CAT_P_OS], ATEN_CAT_OS_SIZE + 4 * (unsigned)d);
        if (!size)
            return off;
        uint32_t next = idx / size;
        off += (idx - next * size) * u32(p[ATEN_CAT_P_OS], ATEN_CAT_OS_STRIDE + 4 * (unsigned)d);
        idx = next;
    }
    return off + idx * u32(p[ATEN_CAT_P_OS], ATEN_CAT_OS_STRIDE);
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const cctx *c = ctx;
    char *out;
    int32_t concat;
    memcpy(&out, p[ATEN_CAT_P_OUTPUT], 8);
    memcpy(&concat, p[ATEN_CAT_P_CONCAT_DIM], 4);
    uint32_t last = u32(p[ATEN_CAT_P_DIM_STRIDE], 0); /* dimStride, or trailingSize (vectorized) */
    unsigned per = c->per_vec ? c->per_vec : 1;
    size_t unit = (size_t)c->elem * per;
    for (unsigned i = 0; i < l->grid[1] && i < ATEN_CAT_BATCH; i++) {
        const char *in = input(p, i);
        uint32_t n = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_NELEMENTS + 4 * i) / per;
        uint32_t offset = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_OFFSET + 4 * i);
        uint32_t dim_size = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_DIM_SIZE + 4 * i);
        uint32_t base = c->per_vec ? offset * last / per : offset * last;
        if (c->per_vec)
            dim_size = dim_size * last / per;
        for (uint32_t t = 0; t < n; t++)
            memcpy(out + (size_t)(base + element_offset(c, p, dim_size, concat, t)) * unit, in + (size_t)t * unit, unit);
    }
}

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const cctx *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    for (unsigned i = 0; i < l->grid[1] && i < ATEN_CAT_BATCH; i++) {
        aten_runs_buffer(&r);
        uint32_t n = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_NELEMENTS + 4 * i);
        if (c->per_vec)
            n = n / c->per_vec * c->per_vec; /* whole vectors */
        aten_runs_add(&r, input(p, i), (size_t)n * c->elem);
    }
    return aten_runs_count(&r);
}

bool aten_cat_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *inner;
    aten_tmpl t, o;
    long dims, batch, stride_size, elem, alignment = 0, per_vec = 0;
    bool aligned = aten_starts(demangled, "void at::native::(anonymous namespace)::CatArrayBatchedCopy_alignedK_contig<", &s);
    bool vec = !aligned && aten_starts(demangled, "void at::native::(anonymous namespace)::CatArrayBatchedCopy_vectorized<", &s);
    if (!aligned && !vec && !aten_starts(demangled, "void at::native::(anonymous namespace)::CatArrayBatchedCopy_contig<", &s))
        return false;
    if (!aten_tmpl_split(s, &t) || t.n != (vec ? 7 : aligned ? 6 : 5) ||
        !aten_tmpl_starts(&t, 0, "at::native::(anonymous namespace)::OpaqueType<", &inner) || !aten_tmpl_split(inner, &o) ||
        !aten_tmpl_int(&o, 0, &elem) || !aten_tmpl_is(&t, 1, "unsigned int") || !aten_tmpl_int(&t, 2, &dims) ||
        !aten_tmpl_int(&t, 3, &batch) || !aten_tmpl_int(&t, 4, &stride_size) || batch != ATEN_CAT_BATCH || dims < 1 ||
        dims > (long)ATEN_CAT_MAX_DIMS || stride_size < 1 || elem < 1 || elem > 16)
        return false;
    if (vec && (!aten_tmpl_int(&t, 5, &alignment) || !aten_tmpl_int(&t, 6, &per_vec) || per_vec < 1 ||
                alignment != per_vec * elem))
        return false;
    cctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = (cctx){(unsigned)elem, (unsigned)dims, (unsigned)stride_size, (unsigned)per_vec};
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx,
                    .params = {8, ATEN_CAT_META_BYTES((unsigned)stride_size), ATEN_CAT_SIZE_STRIDE_BYTES, 4, 4, 0}};
    return aten_bind(&tw, out);
}
