/* One launch of an ATen kernel (aten.h): decoded from the parameters the
 * route gives, checked against live allocations, then a producer (a
 * transposing copy), exact byte ranges (any other decoded launch), or,
 * when anything does not validate, unknown work as before. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aten/aten.h"
#include "aten/abi.h"
#include "aten/cat.h"
#include "aten/decode.h"
#include "aten/tiled.h"
#include "launch/launch.h"
#include "launch/launch_internal.h"
#include "core/state.h"

#define ATEN_PARAMS ATEN_MAX_PARAMS

/* The route's parameter layout, the family's count exactly: a few slots
 * on the stack (param_layout, sized for any kernel, is 16 kB and made only
 * for a producer). */
typedef struct small_layout { int n; size_t off[ATEN_PARAMS + 1], size[ATEN_PARAMS + 1], len; } small_layout;

static bool layout(const pl_launch *l, const aten_kernel *k, small_layout *p)
{
    size_t want[ATEN_PARAMS];
    int n = 0;
    if (!l->param_info || !aten_expected_params(k, want, &n) || n > ATEN_PARAMS)
        return false;
    p->len = 0;
    for (p->n = 0; p->n <= n; p->n++) {
        if (l->param_info(l->fn, (size_t)p->n, &p->off[p->n], &p->size[p->n]) != 0)
            break;
        size_t end = p->off[p->n] + p->size[p->n];
        p->len = end > p->len ? end : p->len;
    }
    return p->n == n;
}

/* Each operand inside a live allocation; a range known only as a bound
 * is cut at its allocation's end (the kernel cannot reach past it). */
static bool place(tf_engine *e, const aten_kernel *k, const aten_iter *it, tf_range *r)
{
    (void)k;
    for (int a = 0; a < it->nargs; a++) {
        tf_range al;
        r[a] = aten_operand_range(k, it, a);
        if (!tf_alloc_range(e, r[a].lo, &al))
            return false;
        if (!it->exact[a] && r[a].hi > al.hi)
            r[a].hi = al.hi;
        if (r[a].hi > al.hi)
            return false;
    }
    return true;
}

/* Whether the launch's threads reach every element it is decoded to cover. */
static bool complete(const pl_launch *l, const aten_kernel *k, const aten_iter *it)
{
    if (k->family == ATEN_FAM_TILED)
        return aten_tiled_complete(k, it, l->grid, l->block);
    return aten_launch_complete(k, it, l->grid[0] * l->grid[1] * l->grid[2], l->block[0] * l->block[1] * l->block[2]);
}

static void describe_access(pl_launch *l, const pl_aten_fn *a, const aten_iter *it, const tf_range *r)
{
    const aten_kernel *k = &a->k;
    tf_view w;
    int nout = it->nout;
    tf_access_init(&l->acc, a->label, l->stream);
    for (int a = nout; a < it->nargs; a++)
        tf_access_read(&l->acc, r[a]);
    for (int a = 1; a < nout; a++) /* more outputs (dropout's mask, a foreach list's other tensors) */
        tf_access_maywrite(&l->acc, r[a]);
    if (complete(l, k, it) && aten_output_view(k, it, &w))
        tf_access_write(&l->acc, w);
    else
        tf_access_maywrite(&l->acc, r[0]);
}

/* "<label> [d0,d1,...] transposed", cut to fit. Written out by hand:
 * snprintf cost about 1,400 instructions a launch, a seventh of a folded
 * copy's whole cost under PyTorch. */
static void shape_name(char *out, size_t cap, const char *label, const int64_t *dims, int n)
{
    char tail[80], *t = tail;
    *t++ = ' ';
    *t++ = '[';
    for (int i = 0; i < n; i++) {
        char digits[24];
        int k = 0;
        uint64_t v = dims[i] < 0 ? (uint64_t)-dims[i] : (uint64_t)dims[i];
        do
            digits[k++] = (char)('0' + v % 10);
        while ((v /= 10) && k < (int)sizeof digits);
        if (dims[i] < 0)
            *t++ = '-';
        while (k)
            *t++ = digits[--k];
        *t++ = i + 1 < n ? ',' : ']';
    }
    memcpy(t, " transposed", sizeof " transposed");
    size_t l = strlen(label);
    l = l < cap - 1 ? l : cap - 1;
    memcpy(out, label, l);
    size_t r = strlen(tail);
    r = r < cap - 1 - l ? r : cap - 1 - l;
    memcpy(out + l, tail, r);
    out[l + r] = '\0';
}

static int produce(pl_launch *l, const pl_aten_fn *a, const small_layout *s, const tf_view *src,
                   const tf_view *dst, bool *deferred)
{
    bool complex_type = a->k.dtype[0] == 'c';
    /* The source tensor's shape: "... [64,96] transposed". The record copies
     * it; pl_launch_end still reads it, before this thread launches again. */
    static __thread char name[160];
    int64_t dims[3] = { dst->batch, dst->rows, dst->cols };
    shape_name(name, sizeof name, a->label, dst->batch > 1 ? dims : dims + 1, dst->batch > 1 ? 3 : 2);
    l->desc = (tf_transpose_desc){ .producer = TF_PRODUCER_ATEN, .name = name, .dtype = a->k.dtype, .src = *src,
                                   .dst = *dst, .complex_type = complex_type, .alpha = { 1.0, 0.0, true } };
    param_layout *p = malloc(sizeof *p);
    unsigned char *bytes = NULL;
    if (p) {
        p->n = s->n, p->len = s->len;
        memcpy(p->off, s->off, sizeof s->off[0] * (size_t)s->n);
        memcpy(p->size, s->size, sizeof s->size[0] * (size_t)s->n);
        bytes = launch_pack(l, p);
    }
    bool ok = bytes && launch_produce(l, p, bytes, deferred);
    free(bytes);
    free(p);
    return ok ? PL_FAMILY_PRODUCER : PL_FAMILY_NONE;
}

/* Said once a process: a wheel whose launch layout is not the one checked
 * (another torch version) leaves every ATen launch unknown work, which
 * costs every fold, and a user should hear why. */
static void layout_differs(const pl_aten_fn *a)
{
    static atomic_bool said;
    if (!atomic_exchange(&said, true))
        fprintf(stderr, "transfold: ATen's launch parameters (%s) differ from the layout checked on torch %s; "
                        "ATen launches are not decoded and count as unknown work\n",
                a->label, ATEN_ABI_TORCH_VERSION);
}

/* torch.cat (cat.h): every input's footprint and every region written
 * inside one live allocation, then at most TF_MAX_RANGES of each. */
static bool cat_placed(tf_engine *e, const aten_cat_ops *ops)
{
    tf_range al;
    for (int i = 0; i < ops->nreads; i++)
        if (!tf_alloc_range(e, ops->reads[i].lo, &al) || ops->reads[i].hi > al.hi)
            return false;
    for (int i = 0; i < ops->nwrites; i++) {
        tf_range r = tf_view_footprint(&ops->writes[i]);
        if (!tf_alloc_range(e, r.lo, &al) || r.hi > al.hi)
            return false;
    }
    return true;
}

static int cat_launch(pl_launch *l, const pl_aten_fn *a, void *const *params)
{
    aten_cat_ops ops;
    if (!aten_cat_decode(&a->k, params, l->grid, l->block, &ops))
        return PL_FAMILY_NONE;
    tf_engine *e = pl_lock();
    bool placed = e && cat_placed(e, &ops);
    pl_unlock(e);
    if (!placed)
        return PL_FAMILY_NONE;
    if (atomic_load(&pl_pending_now) == 0)
        return PL_FAMILY_QUIET;
    aten_cat_fit(&ops, TF_MAX_RANGES);
    tf_access_init(&l->acc, a->label, l->stream);
    for (int i = 0; i < ops.nreads; i++)
        tf_access_read(&l->acc, ops.reads[i]);
    for (int i = 0; i < ops.nwrites; i++) {
        if (ops.may[i])
            tf_access_maywrite(&l->acc, tf_view_footprint(&ops.writes[i]));
        else
            tf_access_write(&l->acc, ops.writes[i]);
    }
    return PL_FAMILY_ACCESS;
}

int pl_aten_launch(pl_launch *l, const pl_aten_fn *a, bool *deferred)
{
    const aten_kernel *k = &a->k;
    small_layout p;
    void *params[ATEN_PARAMS];
    aten_iter it;
    tf_range r[ATEN_MAX_ARGS];
    tf_view src, dst;
    if (!layout(l, k, &p) || (!l->args && (!l->packed || p.len > l->packed_len)))
        return PL_FAMILY_NONE;
    for (int i = 0; i < p.n; i++)
        params[i] = l->args ? l->args[i] : (void *)((const unsigned char *)l->packed + p.off[i]);
    uint64_t blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (!aten_params_match(k, p.size, p.n)) {
        layout_differs(a);
        return PL_FAMILY_NONE;
    }
    if (k->family == ATEN_FAM_CAT)
        return cat_launch(l, a, params);
    if (!aten_decode_blocks(k, params, p.size, p.n, blocks, &it))
        return PL_FAMILY_NONE;
    tf_engine *e = pl_lock();
    bool placed = e && place(e, k, &it, r);
    pl_unlock(e);
    if (!placed)
        return PL_FAMILY_NONE;
    if (aten_transpose(k, &it, &src, &dst) && complete(l, k, &it) && launch_acceptable(l))
        return produce(l, a, &p, &src, &dst, deferred);
    if (atomic_load(&pl_pending_now) == 0)
        return PL_FAMILY_QUIET;
    describe_access(l, a, &it, r);
    return PL_FAMILY_ACCESS;
}
