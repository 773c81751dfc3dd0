/* What an ordinary call (not a producer, not a foldable operand) means to
 * each pending record: DESIGN.md's effect table. Materialisations happen
 * before the call; drops after it, and only when it succeeded. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A pointer-sized value anywhere in the parameter bytes that falls inside
 * the allocation holding the record's source or destination: a kernel handed
 * the start of a buffer and a length reaches all of it, so a pointer into the
 * source or destination themselves is not enough. Unaligned offsets are
 * scanned too: struct parameters are packed by the compiler, not by us. */
static bool params_point_into(const tf_access *a, const tf_record *p)
{
    const unsigned char *b = a->params;
    for (size_t off = 0; b && off + sizeof(uint64_t) <= a->params_len; off += 4) {
        uint64_t v;
        memcpy(&v, b + off, sizeof v);
        tf_range r = {v, v + 1};
        if (tf_range_overlaps(r, p->src_alloc) || tf_range_overlaps(r, p->dst_alloc))
            return true;
    }
    return false;
}

static void unknown_effects(tf_engine *e, const tf_access *a)
{
    char why[96];
    snprintf(why, sizeof why, "unknown access by %s", a->api);
    tf_record *p, *tmp;
    HASH_ITER(hh, e->pending, p, tmp) {
        if (e->cfg.policy == TF_POLICY_STRICT || params_point_into(a, p))
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
