/* The tiled transpose copy as an ATen kernel (tiled.h). */
#include <stdio.h>
#include <string.h>

#include "aten/decode.h"
#include "aten/tiled.h"

_Static_assert(ATEN_TILED_NPARAMS <= ATEN_MAX_PARAMS, "aten_expected_params' callers hold ATEN_MAX_PARAMS sizes");

bool aten_tiled_kernel(const char *demangled, aten_kernel *k)
{
    if (!aten_tiled_parse(demangled, &k->tiled))
        return false;
    static const char *const names[] = { "?", "8-bit", "16-bit", "?", "32-bit", "?", "?", "?", "64-bit" };
    k->family = ATEN_FAM_TILED;
    k->nargs = 2;
    k->nout = 1;
    k->elem[0] = k->elem[1] = k->tiled.elem;
    k->exact[0] = k->exact[1] = true;
    k->copy = true;
    k->dtype = k->tiled.elem <= 8 ? names[k->tiled.elem] : "?";
    snprintf(k->op, sizeof k->op, "transpose_copy_tiled");
    return true;
}

typedef struct tiled_shape { uint64_t src, dst; int64_t w, h, sp, dp; } tiled_shape;

static void shape_read(void *const *p, tiled_shape *s)
{
    memcpy(&s->src, p[ATEN_TILED_P_SRC], 8);
    memcpy(&s->dst, p[ATEN_TILED_P_DST], 8);
    memcpy(&s->w, p[ATEN_TILED_P_WIDTH], 8);
    memcpy(&s->h, p[ATEN_TILED_P_HEIGHT], 8);
    memcpy(&s->sp, p[ATEN_TILED_P_SRC_PITCH], 8);
    memcpy(&s->dp, p[ATEN_TILED_P_DST_PITCH], 8);
}

/* T units within what 32-bit sizes and strides hold (the iteration's
 * fields); a pitch below its row would make rows overlap. */
static bool shape_ok(const tiled_shape *s, unsigned vec, unsigned unit)
{
    const int64_t lim = (int64_t)1 << 30;
    return s->w >= 1 && s->h >= 1 && s->w < lim && s->h < lim && s->sp >= s->w && s->dp >= s->h &&
           s->sp < lim / unit && s->dp < lim / unit && (uint64_t)s->w * vec * (uint64_t)s->h * vec <= 0x7fffffff;
}

bool aten_tiled_decode(const aten_kernel *k, void *const *params, aten_iter *it)
{
    const aten_tiled *t = &k->tiled;
    tiled_shape s;
    shape_read(params, &s);
    if (!shape_ok(&s, t->vec, t->unit) || !s.src || !s.dst)
        return false;
    uint64_t e = t->elem, v = t->vec;
    uint64_t rows = (uint64_t)s.h * v, cols = (uint64_t)s.w * v; /* the source's, in elements */
    it->n = (int64_t)(rows * cols);
    it->dims = 2;
    it->size[0] = (uint32_t)rows; /* along a destination row: down the source's rows */
    it->stride[0][0] = (uint32_t)e;
    it->stride[0][1] = (uint32_t)((uint64_t)s.sp * v * e);
    it->size[1] = (uint32_t)cols;
    it->stride[1][0] = (uint32_t)((uint64_t)s.dp * v * e);
    it->stride[1][1] = (uint32_t)e;
    it->data[0] = s.dst;
    it->data[1] = s.src;
    return true;
}

bool aten_tiled_complete(const aten_kernel *k, const aten_iter *it, const unsigned grid[3], const unsigned block[3])
{
    const aten_tiled *t = &k->tiled;
    uint64_t w = it->size[1] / t->vec, h = it->size[0] / t->vec;
    bool threads = block[0] * t->access == ATEN_TILED_WARP && block[1] == ATEN_TILED_ROWS * t->access && block[2] == 1;
    bool x = (uint64_t)grid[0] * t->tile >= w, y = t->grid_stride || (uint64_t)grid[1] * t->tile >= h;
    return k->family == ATEN_FAM_TILED && threads && x && y && grid[2] == 1;
}
