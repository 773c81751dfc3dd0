/* _scatter_gather_elementwise_kernel: torch.gather, scatter_ / scatter_add_
 * with a tensor source, and index_select with many indices
 * (preload/aten/abi_index.h). Element i of the iterator over [self, src,
 * index]: idx = index[i] (skipped when out of [0, index_size), a device
 * assert on a GPU);
 *   gather:  self[i] = src[i + idx * index_stride]
 *   scatter: self[i + idx * index_stride] = src[i]   (TensorAssign)
 *            self[...] += src[i]                      (ReduceAdd, in the
 *            element type; the GPU's atomics add in any order)
 * Assignments copy the element's bytes. */
#include "aten.h"
#include "abi_index.h"
#include "dtype.h"
#include "offset_calc.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct gctx {
    bool scatter, add;
    size_t elem;           /* bytes an element */
    aten_dtype t, index;   /* t: ATEN_NONE for opaque copies */
} gctx;

typedef struct gclosure {
    aten_oc oc;
    const char *index, *self, *src;
    int64_t index_size, index_stride, numel;
} gclosure;

static bool decode(const void *p, gclosure *g)
{
    const char *b = p;
    memcpy(&g->index, b + ATEN_SG_INDEX_PTR, 8);
    memcpy(&g->index_size, b + ATEN_SG_INDEX_SIZE, 8);
    memcpy(&g->self, b + ATEN_SG_SELF_PTR, 8);
    memcpy(&g->index_stride, b + ATEN_SG_INDEX_STRIDE, 8);
    memcpy(&g->numel, b + ATEN_SG_NUMEL, 8);
    memcpy(&g->src, b + ATEN_SG_SRC_PTR, 8);
    return aten_oc_decode(&g->oc, b + ATEN_SG_OC, 3);
}

/* Runs the kernel, or (reads) adds what it reads from one operand: 0 the
 * index, 1 the source, 2 the destination (scatter_add reads it back). */
static void walk(const gctx *c, const simcuda_launch *l, void **p, aten_runs *reads, int which)
{
    gclosure g;
    int32_t n;
    (void)l;
    memcpy(&n, p[0], 4);
    if (n <= 0 || !decode(p[1], &g))
        return;
    size_t is = aten_dtype_size(c->index);
    aten_oc_walk w;
    aten_oc_walk_start(&w, &g.oc);
    for (int32_t i = 0; i < n; i++, aten_oc_walk_next(&w)) {
        const char *ip = g.index + w.offsets[2];
        int64_t idx = aten_value_int(aten_load(c->index, ip));
        if (reads && which == 0)
            aten_runs_add(reads, ip, is);
        if (idx < 0 || idx >= g.index_size)
            continue;
        int64_t shift = idx * g.index_stride * (int64_t)c->elem;
        char *dst = (char *)g.self + w.offsets[0] + (c->scatter ? shift : 0);
        const char *src = g.src + w.offsets[1] + (c->scatter ? 0 : shift);
        if (reads) {
            if (which == 1)
                aten_runs_add(reads, src, c->elem);
            else if (which == 2 && c->add)
                aten_runs_add(reads, dst, c->elem);
        } else if (c->add) {
            aten_store_double(c->t, dst, aten_load_double(c->t, dst) + aten_load_double(c->t, src));
        } else {
            memcpy(dst, src, c->elem);
        }
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p) { walk(ctx, l, p, NULL, 0); }

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    aten_runs r = aten_runs_start(out, max);
    for (int which = 0; which < 3; which++) {
        aten_runs_buffer(&r);
        walk(ctx, l, p, &r, which);
    }
    return aten_runs_count(&r);
}

bool aten_scatter_gather_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *inner;
    aten_tmpl k, in, o;
    gctx c = {0};
    if (!aten_starts(demangled, "void at::native::_scatter_gather_elementwise_kernel<", &s) || !aten_tmpl_split(s, &k) ||
        k.n != 3 || !aten_tmpl_starts(&k, 2, "at::native::_cuda_scatter_gather_internal_kernel<", &inner) ||
        !aten_tmpl_split(inner, &in) || in.n != 3)
        return false;
    c.scatter = aten_tmpl_is(&in, 0, "true");
    c.index = aten_tmpl_type(&in, 2);
    const char *body = k.arg[2];
    c.add = strstr(body, "::operator()<at::native::ReduceAdd>(") != NULL;
    if (!c.add && !strstr(body, "::operator()<at::native::TensorAssign>("))
        return false;
    if (aten_tmpl_starts(&in, 1, "at::native::OpaqueType<", &inner)) {
        long bytes;
        if (!aten_tmpl_split(inner, &o) || !aten_tmpl_int(&o, 0, &bytes) || bytes < 1 || bytes > 16 || c.add)
            return false;
        c.elem = (size_t)bytes;
        c.t = ATEN_NONE;
    } else {
        c.t = aten_tmpl_type(&in, 1);
        if (!aten_dtype_is_real(c.t))
            return false;
        c.elem = aten_dtype_size(c.t);
    }
    if (!aten_dtype_is_int(c.index) || !strstr(body, "{lambda(int)#1}") || (c.add && !c.scatter))
        return false;
    gctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx, .params = {4, ATEN_SG_BYTES, 0}};
    return aten_bind(&t, out);
}
