/* Late reads of a deferred transpose's source (and the late write of its
 * destination by a replay). Deferral moves the reads of
 * the source later on the record's stream: into the GEMMs folded onto it
 * and into its replay. While the record is pending, a write to the source
 * materialises it and orders the writer after the replay; once the record
 * has ended, another stream ordered only by an event the program recorded
 * right after the transpose would not wait for those later reads. So when a
 * record ends having been read late, the engine asks the hooks for a mark
 * (an event) after everything its stream has so far, and until that mark is
 * known complete, every write to the source from another stream (and every
 * access it cannot enumerate, and every free of the source) is made to wait
 * on it first. The entries count as pending, so the hooks' fast path stays
 * a single load while there are none. */
#include <stdlib.h>

#include "engine/internal.h"

struct tf_late {
    uint64_t stream;
    tf_range src, dst; /* dst: written late (a replay), else empty */
    void *mark;
    struct tf_late *next;
};

static tf_range hull(tf_range a, tf_range b)
{
    if (a.lo == a.hi)
        return b;
    if (b.lo == b.hi)
        return a;
    return (tf_range){ a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
}

/* One entry a stream: a later mark on it covers the earlier late reads
 * too (stream order), so the entry's mark is moved there and its ranges
 * grow to cover both (a wider range only costs extra waits). */
static bool late_merge(tf_engine *e, const tf_record *p, tf_range dst)
{
    const tf_sync_ops *s = &e->cfg.sync;
    for (struct tf_late *l = e->late; l && s->remark; l = l->next)
        if (l->stream == p->d.stream && s->remark(s->ctx, l->mark, p->d.stream)) {
            l->src = hull(l->src, p->src_fp);
            l->dst = hull(l->dst, dst);
            return true;
        }
    return false;
}

void late_note(tf_engine *e, const tf_record *p, bool replayed)
{
    const tf_sync_ops *s = &e->cfg.sync;
    if (e->cfg.mode != TF_MODE_FOLD || !s->mark)
        return;
    if (late_merge(e, p, replayed ? p->dst_fp : (tf_range){ 0, 0 }))
        return;
    struct tf_late *l = e->late_spare ? e->late_spare : malloc(sizeof *l);
    void *mark = l ? s->mark(s->ctx, p->d.stream) : NULL;
    if (!mark) {
        if (l && l != e->late_spare)
            free(l);
        return;
    }
    if (l == e->late_spare)
        e->late_spare = l->next;
    *l = (struct tf_late){ p->d.stream, p->src_fp, replayed ? p->dst_fp : (tf_range){ 0, 0 }, mark, e->late };
    e->late = l;
    e->nlate++;
}

static void late_remove(tf_engine *e, struct tf_late **at)
{
    struct tf_late *l = *at;
    *at = l->next;
    e->cfg.sync.release(e->cfg.sync.ctx, l->mark);
    l->next = e->late_spare;
    e->late_spare = l;
    e->nlate--;
}

/* Whether an access must wait for l: it comes from another stream and
 * writes the source, touches a destination written late, or may touch
 * anything. */
static bool conflicts(const struct tf_late *l, const tf_access *a)
{
    if (a->stream == l->stream)
        return false;
    if (a->unknown)
        return true;
    for (int i = 0; i < a->nreads; i++)
        if (tf_range_overlaps(a->reads[i], l->dst))
            return true;
    for (int i = 0; i < a->nwrites; i++) {
        tf_range w = tf_view_footprint(&a->writes[i]);
        if (tf_range_overlaps(w, l->src) || tf_range_overlaps(w, l->dst))
            return true;
    }
    return false;
}

void late_order(tf_engine *e, const tf_access *a)
{
    const tf_sync_ops *s = &e->cfg.sync;
    for (struct tf_late **at = &e->late; *at;) {
        if (s->done(s->ctx, (*at)->mark)) {
            late_remove(e, at);
            continue;
        }
        if (conflicts(*at, a))
            s->wait(s->ctx, (*at)->mark, a->stream);
        at = &(*at)->next;
    }
}

void late_order_free(tf_engine *e, tf_range r, uint64_t stream)
{
    tf_access a;
    tf_access_init(&a, "free", stream);
    tf_access_write(&a, tf_view_dense(r.lo, r.hi - r.lo));
    late_order(e, &a);
}

static void free_list(struct tf_late **list)
{
    while (*list) {
        struct tf_late *l = *list;
        *list = l->next;
        free(l);
    }
}

/* At exit the marks are left to the driver: CUDA may be gone already. */
void late_clear(tf_engine *e)
{
    free_list(&e->late);
    free_list(&e->late_spare);
    e->nlate = 0;
}
