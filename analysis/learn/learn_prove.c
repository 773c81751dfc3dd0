/* The proof on the data that one measured launch was a transpose: its exact
 * write footprint is the GEMM's view of the output, nothing else reachable
 * changed, and every written element equals the transposed element of a
 * region another pointer parameter points at. Exact, bytewise: sign of zero
 * and NaN payloads included. */
#include <stdlib.h>
#include <string.h>

#include "learn/learn.h"

static int reach_of(const tf_range *reach, int n, uint64_t addr)
{
    for (int k = 0; k < n; k++)
        if (addr >= reach[k].lo && addr < reach[k].hi)
            return k;
    return -1;
}

static uint64_t elem_at(const tf_view *v, int64_t i, int64_t j, int64_t b)
{
    return v->addr + (uint64_t)((b * v->stride + j * v->ld + i) * (int64_t)v->elem);
}

/* 1 for every byte of the view inside [lo, lo+n); false when it leaves it. */
static bool mark_view(const tf_view *v, uint64_t lo, size_t n, unsigned char *mark)
{
    tf_range fp = tf_view_footprint(v);
    if (fp.lo < lo || fp.hi > lo + n)
        return false;
    for (int64_t b = 0; b < v->batch; b++)
        for (int64_t j = 0; j < v->cols; j++)
            for (int64_t i = 0; i < v->rows; i++)
                memset(mark + (elem_at(v, i, j, b) - lo), 1, v->elem);
    return true;
}

/* Whether the output's written bytes are exactly the view, and written the
 * same way over both sentinels (a result depending on the output's previous
 * contents is no transpose). */
static tf_reason check_footprint(const tf_proof_in *in)
{
    const tf_learn_obs *o = in->obs;
    tf_range r = in->reach[in->out];
    size_t n = (size_t)(r.hi - r.lo);
    unsigned char *mark = calloc(1, n ? n : 1);
    if (!mark)
        return TF_R_out_of_memory;
    tf_reason why = mark_view(&in->view, r.lo, n, mark) ? TF_R_NONE : TF_R_learn_view_outside;
    const unsigned char *a = o->after_a[in->out], *b = o->after_b[in->out];
    for (size_t i = 0; !why && i < n; i++) {
        bool written = a[i] != o->sa || b[i] != o->sb;
        if (written && a[i] != b[i])
            why = TF_R_learn_reads_output;
        else if (written && !mark[i])
            why = TF_R_learn_writes_outside;
        else if (!written && mark[i])
            why = TF_R_learn_leaves_unwritten;
    }
    free(mark);
    return why;
}

static tf_reason check_others(const tf_proof_in *in)
{
    for (int k = 0; k < in->nreach; k++) {
        size_t n = (size_t)(in->reach[k].hi - in->reach[k].lo);
        if (k != in->out && (memcmp(in->obs->before[k], in->obs->after_a[k], n) != 0 ||
                             memcmp(in->obs->before[k], in->obs->after_b[k], n) != 0))
            return TF_R_learn_second_buffer;
    }
    return TF_R_NONE;
}

/* dst(i,j,b) == src(j,i,b) for every element, src read from before[k]. */
static bool equals_transpose(const tf_proof_in *in, const tf_view *src, int k)
{
    const tf_view *dst = &in->view;
    const unsigned char *got = in->obs->after_b[in->out], *from = in->obs->before[k];
    uint64_t dlo = in->reach[in->out].lo, slo = in->reach[k].lo;
    for (int64_t b = 0; b < dst->batch; b++)
        for (int64_t j = 0; j < dst->cols; j++)
            for (int64_t i = 0; i < dst->rows; i++)
                if (memcmp(got + (elem_at(dst, i, j, b) - dlo), from + (elem_at(src, j, i, b) - slo), dst->elem))
                    return false;
    return true;
}

static bool fits(const tf_proof_in *in, const tf_view *src, int k)
{
    tf_range fp = tf_view_footprint(src), d = tf_view_footprint(&in->view);
    return tf_view_valid(src) && fp.lo >= in->reach[k].lo && fp.hi <= in->reach[k].hi && !tf_range_overlaps(fp, d);
}

/* Source lds: dense first, then the launch's scalars that could be one. */
static bool try_source(const tf_proof_in *in, uint64_t p, int k, tf_view *src)
{
    const tf_view *v = &in->view;
    for (int li = -1; li < in->nlds; li++) {
        int64_t ld = li < 0 ? v->cols : in->lds[li];
        if (ld < v->cols || (li >= 0 && ld == v->cols))
            continue;
        for (int si = -1; si < (v->batch > 1 ? in->nlds : 0); si++) {
            int64_t stride = si < 0 ? ld * v->rows : in->lds[si];
            if (si >= 0 && stride <= ld * v->rows)
                continue;
            *src = (tf_view){ .addr = p, .elem = v->elem, .rows = v->cols, .cols = v->rows, .ld = ld,
                              .batch = v->batch, .stride = v->batch > 1 ? stride : ld * v->rows };
            if (fits(in, src, k) && equals_transpose(in, src, k))
                return true;
        }
    }
    return false;
}

tf_reason tf_learn_prove(const tf_proof_in *in, tf_view *src, int *src_ptr)
{
    if (in->obs->status)
        return TF_R_learn_launch_failed;
    if (!tf_view_valid(&in->view) || tf_view_bytes(&in->view) == 0)
        return TF_R_learn_view_invalid;
    tf_reason why = check_others(in);
    if (!why)
        why = check_footprint(in);
    if (why)
        return why;
    for (int t = 0; t < in->nptrs; t++) {
        int k = reach_of(in->reach, in->nreach, in->ptrs[t]);
        if (k >= 0 && try_source(in, in->ptrs[t], k, src)) {
            *src_ptr = t;
            return TF_R_NONE;
        }
    }
    return TF_R_learn_not_transpose;
}
