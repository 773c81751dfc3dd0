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
    unsigned batch;   /* inputs a metadata block: 128, or 64 (strided) */
    bool strided;     /* CatArrayBatchedCopy: non-contiguous inputs */
} cctx;

static uint32_t u32(const void *base, size_t off) { uint32_t v; memcpy(&v, (const char *)base + off, 4); return v; }
static const char *input(void **p, unsigned i) { const char *v; memcpy(&v, (const char *)p[ATEN_CAT_P_INPUTS] + ATEN_CAT_INPUT + 8 * i, 8); return v; }

/* CatArrIndexToOffset over a TensorSizeStride at ss: the offset (elements)
 * of input element idx, dim_size along concat. */
static uint32_t element_offset(const cctx *c, const char *ss, uint32_t dim_size, int concat, uint32_t idx)
{
    uint32_t off = 0;
    for (int d = (int)c->dims - 1; d >= 1; d--) {
        uint32_t size = d == concat ? dim_size : u32(ss, ATEN_CAT_OS_SIZE + 4 * (unsigned)d);
        if (!size)
            return off;
        uint32_t next = idx / size;
        off += (idx - next * size) * u32(ss, ATEN_CAT_OS_STRIDE + 4 * (unsigned)d);
        idx = next;
    }
    return off + idx * u32(ss, ATEN_CAT_OS_STRIDE);
}

/* Where input i's element t is read (elements): itself when contiguous,
 * else through the input's own sizes and strides. */
static uint32_t input_offset(const cctx *c, void **p, unsigned i, uint32_t dim_size, int concat, uint32_t t)
{
    const char *meta = p[ATEN_CAT_P_INPUTS];
    if (!c->strided || *(meta + ATEN_CAT_IS_CONTIGUOUS_B(c->batch) + i))
        return t;
    unsigned slot = c->stride_size > 1 ? i : 0;
    return element_offset(c, meta + ATEN_CAT_TENSOR_STRIDE_B(c->batch) + ATEN_CAT_SIZE_STRIDE_BYTES * slot, dim_size, concat, t);
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
    for (unsigned i = 0; i < l->grid[1] && i < c->batch; i++) {
        const char *in = input(p, i);
        uint32_t n = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_NELEMENTS_B(c->batch) + 4 * i) / per;
        uint32_t offset = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_OFFSET_B(c->batch) + 4 * i);
        uint32_t dim_size = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_DIM_SIZE_B(c->batch) + 4 * i);
        uint32_t base = c->per_vec ? offset * last / per : offset * last;
        if (c->per_vec)
            dim_size = dim_size * last / per;
        for (uint32_t t = 0; t < n; t++)
            memcpy(out + (size_t)(base + element_offset(c, p[ATEN_CAT_P_OS], dim_size, concat, t)) * unit,
                   in + (size_t)input_offset(c, p, i, dim_size, concat, t) * unit, unit);
    }
}

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const cctx *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    int32_t concat;
    memcpy(&concat, p[ATEN_CAT_P_CONCAT_DIM], 4);
    for (unsigned i = 0; i < l->grid[1] && i < c->batch; i++) {
        aten_runs_buffer(&r);
        uint32_t n = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_NELEMENTS_B(c->batch) + 4 * i);
        if (c->per_vec)
            n = n / c->per_vec * c->per_vec; /* whole vectors */
        if (!c->strided) {
            aten_runs_add(&r, input(p, i), (size_t)n * c->elem);
            continue;
        }
        uint32_t dim_size = u32(p[ATEN_CAT_P_INPUTS], ATEN_CAT_DIM_SIZE_B(c->batch) + 4 * i);
        for (uint32_t t = 0; t < n; t++)
            aten_runs_add(&r, input(p, i) + (size_t)input_offset(c, p, i, dim_size, concat, t) * c->elem, c->elem);
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
    bool contig = !aligned && !vec && aten_starts(demangled, "void at::native::(anonymous namespace)::CatArrayBatchedCopy_contig<", &s);
    bool strided = !aligned && !vec && !contig &&
                   aten_starts(demangled, "void at::native::(anonymous namespace)::CatArrayBatchedCopy<", &s);
    if (!aligned && !vec && !contig && !strided)
        return false;
    if (!aten_tmpl_split(s, &t) || t.n != (vec ? 7 : aligned ? 6 : 5) ||
        !aten_tmpl_starts(&t, 0, "at::native::(anonymous namespace)::OpaqueType<", &inner) || !aten_tmpl_split(inner, &o) ||
        !aten_tmpl_int(&o, 0, &elem) || !aten_tmpl_is(&t, 1, "unsigned int") || !aten_tmpl_int(&t, 2, &dims) ||
        !aten_tmpl_int(&t, 3, &batch) || !aten_tmpl_int(&t, 4, &stride_size) || (batch != 128 && batch != 64) || dims < 1 ||
        dims > (long)ATEN_CAT_MAX_DIMS || stride_size < 1 || elem < 1 || elem > 16)
        return false;
    if (vec && (!aten_tmpl_int(&t, 5, &alignment) || !aten_tmpl_int(&t, 6, &per_vec) || per_vec < 1 ||
                alignment != per_vec * elem))
        return false;
    cctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = (cctx){(unsigned)elem, (unsigned)dims, (unsigned)stride_size, (unsigned)per_vec, (unsigned)batch, strided};
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx,
                    .params = {8, ATEN_CAT_META_BYTES_B((unsigned)batch, (unsigned)stride_size), ATEN_CAT_SIZE_STRIDE_BYTES, 4, 4, 0}};
    return aten_bind(&tw, out);
}
