/* Matrix views and the byte ranges they touch. */
#include "view.h"

tf_view tf_view_dense(uint64_t addr, uint64_t bytes)
{
    tf_view v = {.addr = addr, .elem = 1, .rows = (int64_t)bytes, .cols = 1,
                 .ld = (int64_t)bytes, .batch = 1, .stride = 0};
    return v;
}

/* The last byte of the view, from addr, without wrapping: a shape that
 * overflows would otherwise wrap to an empty or tiny footprint. */
static bool footprint_fits(const tf_view *v)
{
    uint64_t b, c, last, bytes, end;
    if (v->rows == 0 || v->cols == 0)
        return true;
    return !__builtin_mul_overflow((uint64_t)(v->batch - 1), (uint64_t)v->stride, &b) &&
           !__builtin_mul_overflow((uint64_t)(v->cols - 1), (uint64_t)v->ld, &c) &&
           !__builtin_add_overflow(b, c, &last) && !__builtin_add_overflow(last, (uint64_t)v->rows, &last) &&
           !__builtin_mul_overflow(last, (uint64_t)v->elem, &bytes) && !__builtin_add_overflow(v->addr, bytes, &end) &&
           bytes <= (uint64_t)INT64_MAX;
}

bool tf_view_valid_general(const tf_view *v)
{
    return v->elem > 0 && v->rows >= 0 && v->cols >= 0 && v->batch >= 1 &&
           v->ld >= (v->rows > 0 ? v->rows : 1) && v->stride >= 0 && footprint_fits(v);
}


uint64_t tf_view_bytes(const tf_view *v)
{
    return (uint64_t)v->rows * (uint64_t)v->cols * (uint64_t)v->batch * v->elem;
}

/* Splits an element offset into (i, j, b) on the parent's grid. A parent
 * whose batches are closer than its columns span has no unique split, and
 * we refuse rather than guess. */
static bool split_offset(const tf_view *p, uint64_t off, tf_offset *at)
{
    uint64_t b = 0;
    if (p->batch > 1) {
        if ((uint64_t)p->stride < (uint64_t)p->cols * (uint64_t)p->ld)
            return false;
        b = off / (uint64_t)p->stride;
        off %= (uint64_t)p->stride;
    }
    at->b0 = (int64_t)b;
    at->j0 = (int64_t)(off / (uint64_t)p->ld);
    at->i0 = (int64_t)(off % (uint64_t)p->ld);
    return true;
}

/* Batches of `sub` stacked in an unbatched parent: stride s = dj*ld + di
 * elements moves each batch di rows down and dj columns right, and the
 * last batch must still fit without wrapping into the next column. */
static bool stacked_batches(const tf_view *parent, const tf_view *sub, tf_offset *o)
{
    o->dj = sub->stride / parent->ld;
    o->di = sub->stride % parent->ld;
    int64_t last = sub->batch - 1;
    return o->i0 + last * o->di + sub->rows <= parent->rows && o->j0 + last * o->dj + sub->cols <= parent->cols;
}

/* The general case of tf_view_subview (elements and ld already equal, sub
 * not before parent): apart, so that the common case saves no registers. */
static __attribute__((noinline)) bool subview_at(const tf_view *parent, const tf_view *sub, tf_offset *at)
{
    uint64_t bytes = sub->addr - parent->addr;
    if (bytes % parent->elem)
        return false;
    tf_offset o = {0};
    if (!split_offset(parent, bytes / parent->elem, &o))
        return false;
    if (o.i0 + sub->rows > parent->rows || o.j0 + sub->cols > parent->cols)
        return false;
    if (sub->batch > 1 && parent->batch == 1) {
        if (!stacked_batches(parent, sub, &o))
            return false;
    } else if (sub->batch > 1 && (sub->stride != parent->stride || o.b0 + sub->batch > parent->batch)) {
        return false;
    } else if (o.b0 + 1 > parent->batch) {
        return false;
    }
    *at = o;
    return true;
}

bool tf_view_subview(const tf_view *parent, const tf_view *sub, tf_offset *at)
{
    if (sub->elem != parent->elem || sub->ld != parent->ld || sub->addr < parent->addr)
        return false;
    /* The common case, a GEMM reading a whole transposed matrix from its
     * start: offset 0, no batches, nothing to split. */
    if (sub->addr == parent->addr && sub->batch == 1 && parent->batch == 1) {
        if (sub->rows > parent->rows || sub->cols > parent->cols)
            return false;
        *at = (tf_offset){0};
        return true;
    }
    return subview_at(parent, sub, at);
}

static bool dense(const tf_view *v)
{
    return v->ld == v->rows && (v->batch == 1 || v->stride == v->rows * v->cols);
}

bool tf_view_covers_general(const tf_view *w, const tf_view *v)
{
    if (tf_view_empty(v))
        return true;
    if (dense(w))
        return tf_range_contains(tf_view_footprint(w), tf_view_footprint(v));
    tf_offset at;
    /* A strided write covers v when v's elements are its elements: v is a
     * sub-view of w. A dense v inside the gaps of w is not covered. */
    if ((v->addr - w->addr) % w->elem == 0 && v->elem == w->elem && v->ld == w->ld)
        return tf_view_subview(w, v, &at);
    return false;
}
