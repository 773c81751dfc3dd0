/* ATen's tiled transpose copy (preload/aten/abi_tiled.h): dst is src
 * transposed, element for element, over the tiles the grid reaches (a
 * launch too small for its shape leaves the rest unwritten, as on the
 * GPU). The packed 2x2 and 4x4 register transposes of the vectorized
 * instantiations come to the same element transpose. */
#include "aten.h"
#include "abi_tiled.h"

#include <string.h>

typedef struct shape {
    const char *src;
    char *dst;
    int64_t rows, cols, src_pitch, dst_pitch; /* in elements: src is rows x cols */
    int64_t rows_reached, cols_reached;
} shape;

static bool shape_of(const aten_tiled *t, const simcuda_launch *l, void **p, shape *s)
{
    int64_t w, h, sp, dp;
    memcpy(&s->src, p[ATEN_TILED_P_SRC], 8);
    memcpy(&s->dst, p[ATEN_TILED_P_DST], 8);
    memcpy(&w, p[ATEN_TILED_P_WIDTH], 8);
    memcpy(&h, p[ATEN_TILED_P_HEIGHT], 8);
    memcpy(&sp, p[ATEN_TILED_P_SRC_PITCH], 8);
    memcpy(&dp, p[ATEN_TILED_P_DST_PITCH], 8);
    if (w < 1 || h < 1 || sp < w || dp < h || !s->src || !s->dst)
        return false;
    int64_t v = t->vec, tile_x = (int64_t)l->grid[0] * t->tile, tile_y = (int64_t)l->grid[1] * t->tile;
    s->rows = h * v, s->cols = w * v, s->src_pitch = sp * v, s->dst_pitch = dp * v;
    s->cols_reached = (tile_x < w ? tile_x : w) * v;
    s->rows_reached = (t->grid_stride || tile_y >= h ? h : tile_y) * v;
    return true;
}

static void tiled_run(const void *ctx, const simcuda_launch *l, void **p)
{
    const aten_tiled *t = ctx;
    shape s;
    if (!shape_of(t, l, p, &s))
        return;
    size_t e = t->elem;
    for (int64_t c = 0; c < s.cols_reached; c++)
        for (int64_t r = 0; r < s.rows_reached; r++)
            memcpy(s.dst + (size_t)(c * s.dst_pitch + r) * e, s.src + (size_t)(r * s.src_pitch + c) * e, e);
}

static size_t tiled_reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const aten_tiled *t = ctx;
    shape s;
    size_t n = 0;
    if (shape_of(t, l, p, &s) && s.rows_reached && s.cols_reached)
        aten_read_range(out, max, &n, s.src,
                        (size_t)((s.rows_reached - 1) * s.src_pitch + s.cols_reached) * t->elem);
    return n;
}

bool aten_tiled_resolve(const char *demangled, simcuda_twin *out)
{
    aten_tiled t;
    if (!aten_tiled_parse(demangled, &t))
        return false;
    aten_tiled *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = t;
    aten_twin tw = { .run = tiled_run, .reads = tiled_reads, .ctx = ctx, .params = { 8, 8, 8, 8, 8, 8, 0 } };
    return aten_bind(&tw, out);
}
