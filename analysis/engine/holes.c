/* Holes: the caching allocator hands part of a dead transposed tensor to a
 * new one, whose write covers part of a pending record's destination. The
 * record stays pending; the written bytes become its holes, which its
 * materialisation never copies back (the producer is replayed into scratch
 * memory and only the surviving bytes are copied, tf_hole_ops.fill), and
 * whose reads and writes are none of its business. A write promises its
 * hole before the call (nothing runs) and records it after the call
 * succeeded, so a failed write leaves no hole over bytes it never wrote. */
#include "engine/internal.h"

static tf_range clip(tf_range r, tf_range to)
{
    tf_range c = { r.lo > to.lo ? r.lo : to.lo, r.hi < to.hi ? r.hi : to.hi };
    if (c.hi < c.lo)
        c.hi = c.lo;
    return c;
}

bool holes_within(const tf_record *p, tf_range r)
{
    tf_range c = clip(r, p->dst_fp);
    uint64_t at = c.lo;
    bool moved = true;
    while (at < c.hi && moved) { /* at most nholes steps each pass */
        moved = false;
        for (int i = 0; i < p->nholes; i++)
            if (p->holes[i].lo <= at && at < p->holes[i].hi) {
                at = p->holes[i].hi;
                moved = true;
            }
    }
    return at >= c.hi;
}

bool holes_overlap(const tf_record *p, tf_range r)
{
    for (int i = 0; i < p->nholes; i++)
        if (tf_range_overlaps(p->holes[i], r))
            return true;
    return false;
}

bool holes_cover_all(const tf_record *p)
{
    return p->nholes && holes_within(p, p->dst_fp);
}

/* A write whose every footprint byte is written (a strided write's gaps
 * would be taken for written bytes and never get the producer's values). */
static bool dense(const tf_view *w)
{
    tf_range f = tf_view_footprint(w);
    return !tf_view_empty(w) && tf_view_bytes(w) == f.hi - f.lo;
}

bool holes_promise(const tf_engine *e, tf_record *p, const tf_view *w)
{
    tf_range f = tf_view_footprint(w);
    /* A destination with gaps (ld padding) is not filled: its gap bytes,
     * another tensor's perhaps, would be copied back from scratch. */
    if (!e->cfg.holes.fill || e->cfg.mode != TF_MODE_FOLD || p->gemm || !p->replay.run_to || !dense(w) ||
        !dense(&p->d.dst) ||
        tf_range_overlaps(f, p->src_fp) || p->nholes + p->holes_promised >= TF_MAX_HOLES ||
        (e->cfg.holes.eligible && !e->cfg.holes.eligible(e->cfg.holes.ctx, &p->d)))
        return false;
    p->holes_promised++;
    return true;
}

bool holes_keep(tf_record *p, const tf_view *w)
{
    tf_range h = clip(tf_view_footprint(w), p->dst_fp);
    /* Already a hole (another write made it meanwhile): this write
     * promised nothing, or its promise is only a slot lost. */
    if (!p->holes_promised || holes_within(p, h))
        return false;
    p->holes_promised--;
    p->holes[p->nholes++] = h;
    return true;
}

/* The footprint's bytes outside every hole, in address order. */
static int survivors(const tf_record *p, tf_range keep[TF_MAX_HOLES + 1])
{
    int n = 0;
    uint64_t at = p->dst_fp.lo;
    while (at < p->dst_fp.hi) {
        uint64_t next = p->dst_fp.hi; /* the first hole at or after `at` */
        bool in = false;
        for (int i = 0; i < p->nholes; i++) {
            if (p->holes[i].lo <= at && at < p->holes[i].hi) {
                at = p->holes[i].hi;
                in = true;
                break;
            }
            if (p->holes[i].lo > at && p->holes[i].lo < next)
                next = p->holes[i].lo;
        }
        if (in)
            continue;
        if (n <= TF_MAX_HOLES)
            keep[n++] = (tf_range){at, next};
        at = next;
    }
    return n;
}

int holes_fill(tf_engine *e, tf_record *p, uint64_t trigger_stream)
{
    tf_range keep[TF_MAX_HOLES + 1];
    int n = survivors(p, keep);
    if (n == 0)
        return 0; /* nothing of it survives: nothing to write */
    return e->cfg.holes.fill(e->cfg.holes.ctx, &p->replay, &p->d, keep, n, trigger_stream);
}
