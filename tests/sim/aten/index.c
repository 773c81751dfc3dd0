/* TensorInfo-based kernels (preload/aten/abi_index.h):
 *   triu_tril_kernel      result = self where col - row >= k (triu) or
 *                         <= k (tril), else 0; in place: only the zeros
 *   indexSelect{Small,Large}Index
 *                         dst[.., j, ..] = src[.., indices[j], ..] along
 *                         the select dims (torch.index_select, embedding)
 *   embedding_backward_feature_kernel
 *                         grad_weight[indices[i]] += grad[i] (rows), in
 *                         acc_t per batch of blockDim.y indices, skipping
 *                         padding_idx
 * Copies are bit for bit; an index out of range (a device assert on a GPU)
 * is skipped. */
#include "aten.h"
#include "abi_index.h"
#include "dtype.h"
#include "read_runs.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef enum ikind { I_TRIL, I_INDEX_SELECT_SMALL, I_INDEX_SELECT_LARGE, I_EMBEDDING_BWD } ikind;

typedef struct ictx {
    ikind kind;
    aten_dtype t, acc, index; /* index: indices' type */
    bool upper, inplace;
} ictx;

typedef struct ti {
    char *data;
    int dims;
    uint32_t sizes[ATEN_TI_MAX_DIMS], strides[ATEN_TI_MAX_DIMS];
} ti;

static bool ti_decode(ti *t, const void *p)
{
    const char *b = p;
    memcpy(&t->data, b + ATEN_TI_DATA, 8);
    memcpy(&t->dims, b + ATEN_TI_DIMS, 4);
    if (t->dims < 0 || t->dims > (int)ATEN_TI_MAX_DIMS)
        return false;
    memcpy(t->sizes, b + ATEN_TI_SIZES, 4 * (size_t)t->dims);
    memcpy(t->strides, b + ATEN_TI_STRIDES, 4 * (size_t)t->dims);
    return true;
}

/* IndexToOffset: the last dimension fastest. */
static uint64_t ti_offset(const ti *t, uint64_t linear)
{
    uint64_t off = 0;
    for (int d = t->dims - 1; d > 0; d--) {
        uint64_t size = t->sizes[d] ? t->sizes[d] : 1;
        off += (linear % size) * t->strides[d];
        linear /= size;
    }
    return t->dims ? off + linear * t->strides[0] : linear;
}

static uint64_t ti_numel(const ti *t)
{
    uint64_t n = 1;
    for (int d = 0; d < t->dims; d++)
        n *= t->sizes[d];
    return n;
}

static int64_t p_i64(void **p, int i) { int64_t v; memcpy(&v, p[i], 8); return v; }
static int32_t p_i32(void **p, int i) { int32_t v; memcpy(&v, p[i], 4); return v; }
static char *p_ptr(void **p, int i) { char *v; memcpy(&v, p[i], 8); return v; }

static void run_tril(const ictx *c, void **p, aten_runs *reads)
{
    ti res, self;
    if (!ti_decode(&res, p[ATEN_TRI_RESULT]) || !ti_decode(&self, p[ATEN_TRI_SELF]) || self.dims < 2 || res.dims != self.dims)
        return;
    int64_t k = p_i64(p, ATEN_TRI_K);
    size_t es = aten_dtype_size(c->t);
    uint64_t n = ti_numel(&self), cols = self.sizes[self.dims - 1], rows = self.sizes[self.dims - 2];
    for (uint64_t i = 0; i < n; i++) {
        int64_t col = (int64_t)(i % cols), row = (int64_t)(i / cols % rows);
        bool keep = c->upper ? col - row >= k : col - row <= k;
        char *dst = res.data + ti_offset(&res, i) * es;
        const char *src = self.data + ti_offset(&self, i) * es;
        if (reads) {
            if (keep && !c->inplace)
                aten_runs_add(reads, src, es);
        } else if (!keep) {
            memset(dst, 0, es);
        } else if (!c->inplace) {
            memcpy(dst, src, es);
        }
    }
}

static void run_index_select(const ictx *c, void **p, aten_runs *reads)
{
    ti dst, src, idx;
    if (!ti_decode(&dst, p[ATEN_ISEL_DST]) || !ti_decode(&src, p[ATEN_ISEL_SRC]) || !ti_decode(&idx, p[ATEN_ISEL_INDICES]))
        return;
    int dst_dim = p_i32(p, ATEN_ISEL_DST_DIM), src_dim = p_i32(p, ATEN_ISEL_SRC_DIM);
    int last = c->kind == I_INDEX_SELECT_SMALL ? 6 : 7;
    int64_t src_dim_size = p_i64(p, last);
    if (dst_dim < 0 || dst_dim >= dst.dims || src_dim < 0 || src_dim >= src.dims)
        return;
    uint64_t nidx = ti_numel(&idx), inner = ti_numel(&dst); /* dst's select dim is collapsed to 1 */
    size_t es = aten_dtype_size(c->t), is = aten_dtype_size(c->index);
    if (reads) {
        for (uint64_t j = 0; j < nidx; j++)
            aten_runs_add(reads, idx.data + ti_offset(&idx, j) * is, is);
        aten_runs_buffer(reads);
    }
    for (uint64_t j = 0; j < nidx; j++) {
        int64_t s = aten_value_int(aten_load(c->index, idx.data + ti_offset(&idx, j) * is));
        if (s < 0 || s >= src_dim_size)
            continue;
        for (uint64_t e = 0; e < inner; e++) {
            const char *from = src.data + (ti_offset(&src, e) + (uint64_t)s * src.strides[src_dim]) * es;
            if (reads)
                aten_runs_add(reads, from, es);
            else
                memcpy(dst.data + (ti_offset(&dst, e) + j * dst.strides[dst_dim]) * es, from, es);
        }
    }
}

static void run_embedding_bwd(const ictx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    const char *indices = p_ptr(p, ATEN_EMB_BWD_INDICES), *grad = p_ptr(p, ATEN_EMB_BWD_GRAD);
    char *gw = p_ptr(p, ATEN_EMB_BWD_GRAD_WEIGHT);
    int64_t n = p_i32(p, ATEN_EMB_BWD_N), stride = p_i64(p, ATEN_EMB_BWD_STRIDE), pad = p_i32(p, ATEN_EMB_BWD_PADDING);
    size_t es = aten_dtype_size(c->t), is = aten_dtype_size(c->index);
    int64_t batch = l->block[1] ? l->block[1] : 1;
    if (n <= 0 || stride <= 0)
        return;
    if (reads) {
        aten_runs_add(reads, indices, (size_t)n * is);
        aten_runs_buffer(reads);
        aten_runs_add(reads, grad, (size_t)(n * stride) * es);
        aten_runs_buffer(reads); /* then grad_weight's rows, read back */
    }
    for (int64_t b0 = 0; b0 < n; b0 += batch) {
        int64_t b1 = b0 + batch < n ? b0 + batch : n;
        for (int64_t i = b0; i < b1; i++) {
            int64_t row = aten_value_int(aten_load(c->index, indices + i * (int64_t)is)), first = i;
            for (int64_t j = b0; j < i && first == i; j++) /* rows are summed at their first occurrence */
                if (aten_value_int(aten_load(c->index, indices + j * (int64_t)is)) == row)
                    first = j;
            if (first != i || row == pad || row < 0)
                continue;
            for (int64_t f = 0; f < stride; f++) {
                char *w = gw + (row * stride + f) * (int64_t)es;
                if (reads) {
                    aten_runs_add(reads, w, es);
                    continue;
                }
                double acc = aten_load_double(c->t, w);
                for (int64_t j = i; j < b1; j++)
                    if (aten_value_int(aten_load(c->index, indices + j * (int64_t)is)) == row) {
                        double g = aten_load_double(c->t, grad + (j * stride + f) * (int64_t)es);
                        acc = c->acc == ATEN_DOUBLE ? acc + g : (double)((float)acc + (float)g);
                    }
                aten_store_double(c->t, w, acc);
            }
        }
    }
}

static void dispatch(const ictx *c, const simcuda_launch *l, void **p, aten_runs *reads)
{
    switch (c->kind) {
    case I_TRIL: run_tril(c, p, reads); break;
    case I_INDEX_SELECT_SMALL: case I_INDEX_SELECT_LARGE: run_index_select(c, p, reads); break;
    case I_EMBEDDING_BWD: run_embedding_bwd(c, l, p, reads); break;
    }
}

static void run(const void *ctx, const simcuda_launch *l, void **p) { dispatch(ctx, l, p, NULL); }

static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    aten_runs r = aten_runs_start(out, max);
    dispatch(ctx, l, p, &r);
    return aten_runs_count(&r);
}

/* ---- recognising the instantiation ---- */

static bool bind(const ictx *c, simcuda_twin *out, const size_t *sizes, size_t n)
{
    ictx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = *c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx};
    memcpy(t.params, sizes, n * sizeof *sizes);
    return aten_bind(&t, out);
}

static bool is_bool(const aten_tmpl *t, int i, bool *v)
{
    *v = aten_tmpl_is(t, i, "true");
    return *v || aten_tmpl_is(t, i, "false");
}

bool aten_index_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s;
    aten_tmpl t;
    ictx c = {0};
    if (aten_starts(demangled, "void at::native::triu_tril_kernel<", &s)) {
        /* <T, IndexType, upper, elements_per_thread, inplace> */
        if (!aten_tmpl_split(s, &t) || t.n != 5 || !is_bool(&t, 2, &c.upper) || !is_bool(&t, 4, &c.inplace) ||
            (!aten_tmpl_is(&t, 1, "int") && !aten_tmpl_is(&t, 1, "unsigned int")))
            return false;
        c.kind = I_TRIL;
        c.t = aten_tmpl_type(&t, 0);
        static const size_t sizes[] = {ATEN_TRI_SIZES};
        return c.t != ATEN_NONE && bind(&c, out, sizes, sizeof sizes / sizeof *sizes);
    }
    if (aten_starts(demangled, "void at::native::(anonymous namespace)::indexSelectSmallIndex<", &s) ||
        aten_starts(demangled, "void at::native::(anonymous namespace)::indexSelectLargeIndex<", &s)) {
        bool small = strstr(demangled, "indexSelectSmallIndex<") != NULL;
        /* <T, IndicesType, IndexType, DstDim, SrcDim, IdxDim[, IndexIsMajor]> */
        if (!aten_tmpl_split(s, &t) || t.n != (small ? 6 : 7) || !aten_tmpl_is(&t, 2, "unsigned int"))
            return false;
        c.kind = small ? I_INDEX_SELECT_SMALL : I_INDEX_SELECT_LARGE;
        c.t = aten_tmpl_type(&t, 0);
        c.index = aten_tmpl_type(&t, 1);
        if (c.t == ATEN_NONE || !aten_dtype_is_int(c.index))
            return false;
        static const size_t ssz[] = {ATEN_ISEL_SMALL_SIZES}, lsz[] = {ATEN_ISEL_LARGE_SIZES};
        return small ? bind(&c, out, ssz, sizeof ssz / sizeof *ssz) : bind(&c, out, lsz, sizeof lsz / sizeof *lsz);
    }
    if (aten_starts(demangled, "void at::native::(anonymous namespace)::embedding_backward_feature_kernel<", &s)) {
        if (!aten_tmpl_split(s, &t) || t.n != 3)
            return false;
        c.kind = I_EMBEDDING_BWD;
        c.t = aten_tmpl_type(&t, 0);
        c.acc = aten_tmpl_type(&t, 1);
        c.index = aten_tmpl_type(&t, 2);
        if (!aten_dtype_is_float(c.t) || (c.acc != ATEN_FLOAT && c.acc != ATEN_DOUBLE) || !aten_dtype_is_int(c.index))
            return false;
        static const size_t sizes[] = {ATEN_EMB_BWD_SIZES};
        return bind(&c, out, sizes, sizeof sizes / sizeof *sizes);
    }
    return false;
}
