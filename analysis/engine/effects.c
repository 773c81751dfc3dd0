/* What an ordinary call (not a producer, not a foldable operand) means to
 * each pending record: docs/design.md's effect table. Materialisations happen
 * before the call; drops after it, and only when it succeeded. */
#include <stdio.h>
#include <string.h>

#include "engine/internal.h"

/* The records whose source or destination lies in allocation al run now. */
static void materialize_in(tf_engine *e, const tf_access *a, const tf_alloc_entry *al, const tf_why *why)
{
    tf_range ar = {al->base, al->base + al->size};
    tf_record *p;
    tf_icursor at = ITREE_START;
    while ((p = rec_next_src(e, ar, &at)))
        if (!p->gemm || gemm_touches(p, ar)) /* not an allocation between a GEMM's inputs */
            rec_materialize(e, p, a->stream, why, a->api);
    at = ITREE_START;
    while ((p = rec_next_dst(e, ar, &at)))
        rec_materialize(e, p, a->stream, why, a->api);
}

typedef struct pointed { tf_engine *e; const tf_access *a; const tf_why *why; } pointed;

/* A value inside an allocation, or one past its end (an end pointer a
 * kernel counts down from), points into it. */
static bool word_effects(uint64_t v, size_t off, void *ctx)
{
    pointed *c = ctx;
    (void)off;
    const tf_alloc_entry *al = alloc_find(c->e, (tf_range){v, v + 1});
    if (al)
        materialize_in(c->e, c->a, al, c->why);
    const tf_alloc_entry *before = v ? alloc_find(c->e, (tf_range){v - 1, v}) : NULL;
    if (before && before != al)
        materialize_in(c->e, c->a, before, c->why);
    return c->e->npending == 0;
}

/* A pointer-sized value anywhere in the parameter bytes (tf_scan_words:
 * every byte offset, struct parameters are packed by the compiler, not by
 * us) that falls inside the allocation holding a record's source or
 * destination: a kernel handed the start of a buffer and a length reaches
 * all of it, so a pointer into the source or destination themselves is not
 * enough. Each value costs one or two lookups in the allocation index,
 * however much is pending. */
static void params_effects(tf_engine *e, const tf_access *a, const tf_why *why)
{
    pointed c = {e, a, why};
    tf_scan_words(a->params, a->params_len, word_effects, &c);
}

/* Strict: every record runs (each is visited once and leaves the table). */
static void unknown_effects(tf_engine *e, const tf_access *a)
{
    tf_why why = TF_WHY(unknown_access, .str = {a->api});
    if (e->cfg.policy != TF_POLICY_STRICT && !a->overflow) {
        params_effects(e, a, &why);
        return;
    }
    tf_record *p, *tmp;
    REC_EACH_PENDING(e, p, tmp)
        rec_materialize(e, p, a->stream, &why, a->api);
}

/* materialize_under's walk, from p, the first record found. */
static void materialize_from(tf_engine *e, const tf_access *a, tf_record *p, tf_range r, bool src,
                             const tf_view *cover, tf_reason what, tf_kept *kept, tf_icursor *at)
{
    for (; p; p = src ? rec_next_src(e, r, at) : rec_next_dst(e, r, at)) {
        /* a deferred GEMM is indexed by the span of A, B and its
         * workspace: a write between them touches none (gemm_defer.c) */
        if (src && p->gemm && !gemm_touches(p, r))
            continue;
        if (!src && p->nholes && holes_within(p, r))
            continue; /* bytes a later write owns: not the record's */
        if (cover && tf_view_covers(cover, &p->d.dst)) {
            if (kept && kept->n < TF_MAX_KEPT)
                kept->p[kept->n++] = p;
            else if (kept)
                kept->complete = false;
            continue;
        }
        if (cover && holes_promise(e, p, cover)) {
            if (kept) /* effects_after must search, to record the hole */
                kept->complete = false;
            continue;
        }
        tf_why why = { .key = what, .str = {a->api} };
        rec_materialize(e, p, a->stream, &why, a->api);
    }
}

/* Records whose source (src) or destination footprint overlaps r run now,
 * except those whose destination `cover` writes whole (they are dropped
 * after the call instead, and listed in `kept` when it is given). Inline
 * up to the first search: most find nothing, and a call that only set up
 * the walk cost as much as the search. */
static inline __attribute__((always_inline)) void materialize_under(tf_engine *e, const tf_access *a, tf_range r,
                                                                    bool src, const tf_view *cover, tf_reason what,
                                                                    tf_kept *kept)
{
    if (!bound_may_overlap(src ? e->src_bound : e->dst_bound, r))
        return;
    tf_icursor at = ITREE_START;
    tf_record *p = src ? rec_next_src(e, r, &at) : rec_next_dst(e, r, &at);
    if (p)
        materialize_from(e, a, p, r, src, cover, what, kept, &at);
}

static __attribute__((noinline)) bool maywrite_at(const tf_access *a, int i)
{
    return a->maywrite >> i & 1;
}

/* effects_before's writes when some are may-writes (ATen's strided
 * outputs not proven dense): those run every record they overlap and keep
 * none for dropping. Out of line: no other call pays for the test. */
static __attribute__((noinline)) void maywrite_effects(tf_engine *e, const tf_access *a, tf_kept *kept)
{
    for (int i = 0; i < a->nreads; i++)
        materialize_under(e, a, a->reads[i], false, NULL, TF_R_dst_read, NULL);
    for (int i = 0; i < a->nwrites; i++) {
        tf_range w = tf_view_footprint(&a->writes[i]);
        const tf_view *cover = a->maywrite >> i & 1 ? NULL : &a->writes[i];
        materialize_under(e, a, w, true, NULL, TF_R_src_overwritten, NULL);
        materialize_under(e, a, w, false, cover, TF_R_dst_partly_overwritten, kept);
    }
}

/* A record's reason is the first that applies in this order: its
 * destination read; then, write by write, its source overwritten or its
 * destination partly overwritten. */
void effects_before(tf_engine *e, const tf_access *a, tf_kept *kept)
{
    /* The list is only complete for a single write: with more, a later
     * write could run a record an earlier one covers. */
    if (kept) /* the list's slots are only read below n */
        kept->n = 0, kept->complete = a->nwrites == 1 && !a->unknown; /* a lone may-write keeps none */
    if (e->npending == 0)
        return;
    if (__builtin_expect(a->unknown | a->maywrite, 0)) { /* adjacent bytes: one test */
        if (a->unknown)
            unknown_effects(e, a);
        else
            maywrite_effects(e, a, kept);
        return;
    }
    for (int i = 0; i < a->nreads; i++)
        materialize_under(e, a, a->reads[i], false, NULL, TF_R_dst_read, NULL);
    for (int i = 0; i < a->nwrites; i++) {
        tf_range w = tf_view_footprint(&a->writes[i]);
        materialize_under(e, a, w, true, NULL, TF_R_src_overwritten, NULL);
        materialize_under(e, a, w, false, &a->writes[i], TF_R_dst_partly_overwritten, kept);
    }
}

void effects_after(tf_engine *e, const tf_access *a)
{
    for (int i = 0; i < a->nwrites && e->npending; i++) {
        if (__builtin_expect(a->maywrite != 0, 0) && maywrite_at(a, i))
            continue; /* never proven to cover anything */
        tf_icursor at = ITREE_START;
        tf_record *p;
        tf_range w = tf_view_footprint(&a->writes[i]);
        if (!bound_may_overlap(e->dst_bound, w))
            continue;
        while ((p = rec_next_dst(e, w, &at))) {
            if (!tf_view_covers(&a->writes[i], &p->d.dst) &&
                !(holes_keep(p, &a->writes[i]) && holes_cover_all(p)))
                continue;
            tf_why why = TF_WHY(dst_overwritten, .str = {a->api});
            rec_drop(e, p, &why);
        }
    }
}

void effects_drop_kept(tf_engine *e, const tf_access *a, const tf_kept *kept)
{
    if (!kept->complete) {
        effects_after(e, a);
        return;
    }
    for (int i = 0; i < kept->n; i++) {
        tf_why why = TF_WHY(dst_overwritten, .str = {a->api});
        rec_drop(e, kept->p[i], &why);
    }
}
