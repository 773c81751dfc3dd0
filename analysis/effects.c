/* What an ordinary call (not a producer, not a foldable operand) means to
 * each pending record: DESIGN.md's effect table. Materialisations happen
 * before the call; drops after it, and only when it succeeded. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A pointer-sized value anywhere in the parameter bytes (every byte offset:
 * struct parameters are packed by the compiler, not by us) that falls inside
 * the allocation holding the record's source or destination, or one past
 * its end (an end pointer a kernel counts down from): a kernel handed the
 * start of a buffer and a length reaches all of it, so a pointer into the
 * source or destination themselves is not enough. */
static bool in_or_at_end(tf_range r, uint64_t v)
{
    return r.lo <= v && v <= r.hi;
}

static bool word_points_into(uint64_t v, size_t off, void *ctx)
{
    const tf_record *p = ctx;
    (void)off;
    return in_or_at_end(p->src_alloc, v) || in_or_at_end(p->dst_alloc, v);
}

static bool params_point_into(const tf_access *a, const tf_record *p)
{
    return tf_scan_words(a->params, a->params_len, word_points_into, (void *)p);
}

static void unknown_effects(tf_engine *e, const tf_access *a)
{
    char why[96];
    snprintf(why, sizeof why, "unknown access by %s", a->api);
    tf_record *p, *tmp;
    HASH_ITER(hh, e->pending, p, tmp) {
        if (e->cfg.policy == TF_POLICY_STRICT || a->overflow || params_point_into(a, p))
            rec_materialize(e, p, a->stream, why, a->api);
    }
}

/* The reason a record must run before this call, or NULL. */
static const char *must_materialize(const tf_access *a, const tf_record *p)
{
    for (int i = 0; i < a->nreads; i++)
        if (tf_range_overlaps(a->reads[i], p->dst_fp))
            return "destination read";
    for (int i = 0; i < a->nwrites; i++) {
        tf_range w = tf_view_footprint(&a->writes[i]);
        if (tf_range_overlaps(w, p->src_fp))
            return "source overwritten";
        if (tf_range_overlaps(w, p->dst_fp) && !tf_view_covers(&a->writes[i], &p->d.dst))
            return "destination partly overwritten";
    }
    return NULL;
}

void effects_before(tf_engine *e, const tf_access *a)
{
    if (e->npending == 0)
        return;
    if (a->unknown) {
        unknown_effects(e, a);
        return;
    }
    tf_record *p, *tmp;
    HASH_ITER(hh, e->pending, p, tmp) {
        const char *what = must_materialize(a, p);
        if (what) {
            char why[96];
            snprintf(why, sizeof why, "%s by %s", what, a->api);
            rec_materialize(e, p, a->stream, why, a->api);
        }
    }
}

void effects_after(tf_engine *e, const tf_access *a)
{
    tf_record *p, *tmp;
    HASH_ITER(hh, e->pending, p, tmp) {
        for (int i = 0; i < a->nwrites; i++) {
            if (tf_view_covers(&a->writes[i], &p->d.dst)) {
                char why[96];
                snprintf(why, sizeof why, "destination overwritten by %s", a->api);
                rec_drop(e, p, why);
                break;
            }
        }
    }
}
