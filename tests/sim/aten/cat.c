/* torch.cat / torch.stack (preload/aten/abi_cat.h, whose helpers read the
 * launch as the preload's decoder does): every element of each input of
 * the batch copied, as its opaque bytes, to its place in the output; the
 * vectorized kernel moves whole vectors of elems_per_vec elements the
 * same way; the strided one reads a non-contiguous input through its own
 * sizes and strides. Bit for bit, in the kernel's 32-bit offsets. */
#include "aten.h"
#include "abi_cat.h"
#include "read_runs.h"

#include <stdlib.h>
#include <string.h>

static const char *input(void **p, unsigned i)
{
    const char *v;
    memcpy(&v, (const char *)p[ATEN_CAT_P_INPUTS] + ATEN_CAT_INPUT + 8 * i, 8);
    return v;
}

/* Where input element (unit) t is read: itself, or through its strides. */
static uint32_t input_offset(const aten_cat *c, const aten_cat_input *in, int concat, uint32_t t)
{
    return in->ss ? (uint32_t)aten_cat_index_offset(in->ss, c->dims, in->dim_size, concat, t) : t;
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const aten_cat *c = ctx;
    char *out;
    int32_t concat;
    memcpy(&out, p[ATEN_CAT_P_OUTPUT], 8);
    memcpy(&concat, p[ATEN_CAT_P_CONCAT_DIM], 4);
    uint32_t last = aten_cat_u32(p[ATEN_CAT_P_DIM_STRIDE], 0); /* dimStride, or trailingSize (vectorized) */
    size_t unit = (size_t)c->elem * c->per_vec;
    for (unsigned i = 0; i < l->grid[1] && i < c->batch; i++) {
        aten_cat_input in;
        aten_cat_input_at(c, p[ATEN_CAT_P_INPUTS], i, &in);
        aten_cat_place at = aten_cat_place_of(c, &in, last);
        for (uint32_t t = 0; t < at.n; t++) {
            uint32_t o = at.base + (uint32_t)aten_cat_index_offset(p[ATEN_CAT_P_OS], c->dims, at.dim_size, concat, t);
            memcpy(out + (size_t)o * unit, (const char *)in.data + (size_t)input_offset(c, &in, concat, t) * unit, unit);
        }
    }
}

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const aten_cat *c = ctx;
    aten_runs r = aten_runs_start(out, max);
    int32_t concat;
    memcpy(&concat, p[ATEN_CAT_P_CONCAT_DIM], 4);
    for (unsigned i = 0; i < l->grid[1] && i < c->batch; i++) {
        aten_runs_buffer(&r);
        aten_cat_input in;
        aten_cat_input_at(c, p[ATEN_CAT_P_INPUTS], i, &in);
        uint32_t n = in.n / c->per_vec * c->per_vec; /* whole vectors */
        if (!in.ss) {
            aten_runs_add(&r, input(p, i), (size_t)n * c->elem);
            continue;
        }
        for (uint32_t t = 0; t < n; t++)
            aten_runs_add(&r, input(p, i) + (size_t)input_offset(c, &in, concat, t) * c->elem, c->elem);
    }
    return aten_runs_count(&r);
}

bool aten_cat_resolve(const char *demangled, simcuda_twin *out)
{
    aten_cat *ctx = malloc(sizeof *ctx);
    if (!ctx || !aten_cat_parse(demangled, ctx)) {
        free(ctx);
        return false;
    }
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx,
                    .params = {8, ATEN_CAT_META_BYTES_B(ctx->batch, ctx->stride_size), ATEN_CAT_SIZE_STRIDE_BYTES, 4, 4, 0}};
    return aten_bind(&tw, out);
}
