/* torch.cat's kernels as an ATen kernel (cat.h). */
#include <stdio.h>
#include <string.h>

#include "aten/cat.h"

_Static_assert(ATEN_CAT_NPARAMS <= ATEN_MAX_PARAMS, "aten_expected_params' callers hold ATEN_MAX_PARAMS sizes");

bool aten_cat_kernel(const char *demangled, aten_kernel *k)
{
    if (!aten_cat_parse(demangled, &k->cat))
        return false;
    static const char *const kinds[] = { "CatArrayBatchedCopy_contig", "CatArrayBatchedCopy_alignedK_contig",
                                         "CatArrayBatchedCopy_vectorized", "CatArrayBatchedCopy" };
    static const char *const names[] = { "?", "8-bit", "16-bit", "?", "32-bit", "?", "?", "?", "64-bit" };
    k->family = ATEN_FAM_CAT;
    k->nargs = 2;
    k->nout = 1;
    k->elem[0] = k->elem[1] = k->cat.elem;
    k->exact[0] = k->exact[1] = true;
    k->dtype = k->cat.elem <= 8 ? names[k->cat.elem] : "128-bit";
    snprintf(k->op, sizeof k->op, "%s", kinds[k->cat.kind]);
    return true;
}

/* One launch's parameters. */
typedef struct cat_launch {
    const aten_cat *c;
    uint64_t out;
    const unsigned char *meta, *os;
    int32_t concat;
    uint32_t last;   /* dimStride, or trailingSize (vectorized) */
    unsigned inputs; /* grid.y */
} cat_launch;

static uint32_t os_size(const cat_launch *L, int d) { return aten_cat_u32(L->os, ATEN_CAT_OS_SIZE + 4 * (unsigned)d); }
static uint32_t os_stride(const cat_launch *L, int d) { return aten_cat_u32(L->os, ATEN_CAT_OS_STRIDE + 4 * (unsigned)d); }

/* Each thread strides over an input's elements by the grid's x threads,
 * so any grid.x and block.x reach them all; blockIdx.y picks the input. */
static bool launch_read(const aten_kernel *k, void *const *p, const unsigned grid[3], const unsigned block[3],
                        cat_launch *L)
{
    *L = (cat_launch){ .c = &k->cat, .meta = p[ATEN_CAT_P_INPUTS], .os = p[ATEN_CAT_P_OS], .inputs = grid[1] };
    memcpy(&L->out, p[ATEN_CAT_P_OUTPUT], 8);
    memcpy(&L->concat, p[ATEN_CAT_P_CONCAT_DIM], 4);
    L->last = aten_cat_u32(p[ATEN_CAT_P_DIM_STRIDE], 0);
    if (!L->out || grid[0] < 1 || grid[1] < 1 || grid[1] > k->cat.batch || grid[2] != 1 || block[0] < 1 ||
        block[1] != 1 || block[2] != 1 || L->concat < 0 || L->concat >= (int)k->cat.dims)
        return false;
    for (int d = 0; d < (int)k->cat.dims; d++)
        if (os_size(L, d) < 1)
            return false;
    return true;
}

/* The product of a TensorSizeStride's sizes, dim_size along concat; 0
 * past 32 bits. */
static uint64_t count(const unsigned char *ss, unsigned dims, uint64_t dim_size, int concat)
{
    uint64_t n = 1;
    for (unsigned d = 0; d < dims && n; d++) {
        n *= (int)d == concat ? dim_size : aten_cat_u32(ss, ATEN_CAT_OS_SIZE + 4 * d);
        n = n > UINT32_MAX ? 0 : n;
    }
    return n;
}

/* Input i: its place in the output (in units) and its footprint. Its
 * elements must be exactly the output region's (else the kernel would
 * write past it or leave part of it), and a strided input's its own sizes'
 * (then its last element is its farthest: strides are unsigned). */
static bool input(const cat_launch *L, unsigned i, aten_cat_place *at, tf_range *read)
{
    const aten_cat *c = L->c;
    aten_cat_input in;
    aten_cat_input_at(c, L->meta, i, &in);
    *at = aten_cat_place_of(c, &in, L->last);
    uint64_t base = (uint64_t)in.offset * L->last, span = (uint64_t)in.dim_size * L->last;
    bool vec = c->kind == ATEN_CAT_VECTORIZED;
    if (!in.data || in.n < 1 || in.dim_size < 1 || base > UINT32_MAX || (vec && span > UINT32_MAX))
        return false; /* the kernel's 32-bit products would wrap */
    if (vec && (in.n % c->per_vec || base % c->per_vec || span % c->per_vec))
        return false; /* a partial vector: the kernel drops it */
    if (count(L->os, c->dims, at->dim_size, L->concat) != at->n)
        return false;
    uint64_t last = in.n - 1u;
    if (in.ss) {
        if (count(in.ss, c->dims, in.dim_size, L->concat) != in.n)
            return false;
        last = aten_cat_index_offset(in.ss, c->dims, in.dim_size, L->concat, in.n - 1u);
        if (last > UINT32_MAX)
            return false;
    }
    uint64_t bytes = (last + 1) * c->elem;
    if (in.data + bytes < in.data)
        return false;
    *read = (tf_range){ in.data, in.data + bytes };
    return true;
}

/* The output region at unit `base`, dim_size along concat: an exact view
 * when aten_output_view proves it one (dense rows, at most three
 * dimensions), else a may-write of its footprint. The vectorized kernel's
 * units are vectors: its elements are one more, fastest dimension. */
static bool region(const aten_kernel *k, const cat_launch *L, uint64_t base, uint64_t dim_size, aten_cat_ops *ops)
{
    const aten_cat *c = L->c;
    uint64_t unit = (uint64_t)c->elem * c->per_vec, reach = 0; /* the farthest unit, from base */
    aten_iter it;
    memset(&it, 0, sizeof it);
    it.nargs = it.nout = 1;
    it.elem[0] = c->elem;
    it.exact[0] = true;
    it.size[0] = c->per_vec;
    it.stride[0][0] = c->elem;
    it.dims = 1 + (int)c->dims;
    for (int d = (int)c->dims - 1, at = 1; d >= 0; d--, at++) {
        uint64_t size = d == L->concat ? dim_size : os_size(L, d), stride = (uint64_t)os_stride(L, d) * unit;
        reach += (size - 1) * os_stride(L, d);
        if (stride > UINT32_MAX || reach > UINT32_MAX)
            return false;
        it.size[at] = (uint32_t)size;
        it.stride[at][0] = (uint32_t)stride;
    }
    if (base + reach > UINT32_MAX || L->out + (base + reach + 1) * unit < L->out)
        return false; /* the kernel's 32-bit offset would wrap */
    it.data[0] = L->out + base * unit;
    int w = ops->nwrites++;
    ops->may[w] = !aten_output_view(k, &it, &ops->writes[w]);
    if (ops->may[w])
        ops->writes[w] = tf_view_dense(it.data[0], (reach + 1) * unit);
    return true;
}

bool aten_cat_decode(const aten_kernel *k, void *const *params, const unsigned grid[3], const unsigned block[3],
                     aten_cat_ops *ops)
{
    cat_launch L;
    ops->nreads = ops->nwrites = 0;
    if (k->family != ATEN_FAM_CAT || !launch_read(k, params, grid, block, &L))
        return false;
    /* Input i + 1 placed right after input i along concatDim: one region. */
    uint64_t step = os_stride(&L, L.concat), base = 0, dim_size = 0;
    for (unsigned i = 0; i < L.inputs; i++) {
        aten_cat_place at;
        if (!input(&L, i, &at, &ops->reads[ops->nreads++]))
            return false;
        if (i > 0 && at.base == base + dim_size * step && dim_size + at.dim_size <= UINT32_MAX) {
            dim_size += at.dim_size;
            continue;
        }
        if (i > 0 && !region(k, &L, base, dim_size, ops))
            return false;
        base = at.base, dim_size = at.dim_size;
    }
    return region(k, &L, base, dim_size, ops);
}

/* Reads sorted by start (insertion: a launch has at most 128). */
static void sort_reads(aten_cat_ops *ops)
{
    for (int i = 1; i < ops->nreads; i++) {
        tf_range r = ops->reads[i];
        int j = i;
        for (; j > 0 && ops->reads[j - 1].lo > r.lo; j--)
            ops->reads[j] = ops->reads[j - 1];
        ops->reads[j] = r;
    }
}

static void join_read(aten_cat_ops *ops, int i)
{
    if (ops->reads[i + 1].hi > ops->reads[i].hi)
        ops->reads[i].hi = ops->reads[i + 1].hi;
    memmove(&ops->reads[i + 1], &ops->reads[i + 2], sizeof ops->reads[0] * (size_t)(ops->nreads - i - 2));
    ops->nreads--;
}

void aten_cat_fit(aten_cat_ops *ops, int max)
{
    if (ops->nreads > max) {
        sort_reads(ops);
        for (int i = 0; i + 1 < ops->nreads;)
            if (ops->reads[i + 1].lo <= ops->reads[i].hi)
                join_read(ops, i);
            else
                i++;
        while (ops->nreads > max) {
            int best = 0;
            for (int i = 1; i + 1 < ops->nreads; i++)
                if (ops->reads[i + 1].lo - ops->reads[i].hi < ops->reads[best + 1].lo - ops->reads[best].hi)
                    best = i;
            join_read(ops, best);
        }
    }
    if (ops->nwrites > max) {
        tf_range all = tf_view_footprint(&ops->writes[0]);
        for (int i = 1; i < ops->nwrites; i++) {
            tf_range r = tf_view_footprint(&ops->writes[i]);
            all.lo = r.lo < all.lo ? r.lo : all.lo;
            all.hi = r.hi > all.hi ? r.hi : all.hi;
        }
        ops->writes[0] = tf_view_dense(all.lo, all.hi - all.lo);
        ops->may[0] = true;
        ops->nwrites = 1;
    }
}
