/* Transpose records and their state machine:
 * PENDING -> MATERIALIZED (replayed) or DROPPED (never run). A record leaves
 * the pending table on either transition and is freed at once: nothing may
 * refer to it afterwards. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/internal.h"

/* Records come from the engine's pool (pool.h): a steady stream of
 * transposes allocates nothing. */
static tf_record *rec_alloc(tf_engine *e)
{
    return pool_take(&e->rec_pool, sizeof(tf_record));
}

static void rec_release(tf_engine *e, tf_record *p)
{
    free(p->heap);
    pool_give(&e->rec_pool, p);
}

void rec_free_spares(tf_engine *e)
{
    pool_free(&e->rec_pool);
}

/* d's strings, copied into p: inline when they fit, else in one allocation. */
static bool copy_strings(tf_record *p, const tf_transpose_desc *d)
{
    const char *s[3] = {d->producer ? d->producer : "", d->name ? d->name : "", d->dtype ? d->dtype : ""};
    size_t n[3], total = 0;
    for (int i = 0; i < 3; i++)
        total += n[i] = strlen(s[i]) + 1;
    p->heap = total > sizeof p->text ? malloc(total) : NULL;
    char *at = total > sizeof p->text ? p->heap : p->text;
    if (!at)
        return false;
    const char **to[3] = {&p->d.producer, &p->d.name, &p->d.dtype};
    for (int i = 0; i < 3; i++) {
        memcpy(at, s[i], n[i]);
        *to[i] = at;
        at += n[i];
    }
    return true;
}

tf_record *rec_create(tf_engine *e, const tf_transpose_desc *d, const tf_replay *r, const tf_range fp[2],
                      const tf_range alloc[2])
{
    tf_record *p = rec_alloc(e);
    if (!p)
        return NULL;
    /* Every field is set below (hh by HASH_ADD, the nodes' links by
     * itree_insert): a reused record is not cleared first. */
    p->d = *d;
    /* Strings that outlive every record need no copy (the copy was a fifth
     * of a record's making). */
    if (d->static_strings)
        p->heap = NULL;
    else if (!copy_strings(p, d)) {
        rec_release(e, p);
        return NULL;
    }
    p->id = ++e->next_id;
    p->src_fp = fp[0];
    p->dst_fp = fp[1];
    p->src_alloc = alloc[0];
    p->dst_alloc = alloc[1];
    p->replay = *r;
    p->state = REC_PENDING;
    p->folds = 0;
    p->nholes = p->holes_promised = 0;
    p->gemm = false;
    p->src_frozen = false;
    HASH_ADD(hh, e->pending, id, sizeof p->id, p);
    p->by_src.lo = p->src_fp.lo;
    p->by_src.hi = p->src_fp.hi;
    p->by_src.tie = p->id;
    p->by_dst.lo = p->dst_fp.lo;
    p->by_dst.hi = p->dst_fp.hi;
    p->by_dst.tie = p->id;
    itree_insert(&e->pend_src, &p->by_src);
    itree_insert(&e->pend_dst, &p->by_dst);
    e->npending++;
    e->newest = p;
    return p;
}

void rec_discard(tf_engine *e, tf_record *p)
{
    HASH_DEL(e->pending, p);
    if (!p->src_frozen)
        itree_remove(&e->pend_src, &p->by_src);
    itree_remove(&e->pend_dst, &p->by_dst);
    e->npending--;
    if (e->newest == p)
        e->newest = NULL;
    if (p->replay.release)
        p->replay.release(p->replay.arg);
    rec_release(e, p);
    if (e->nheld)
        held_release_unused(e); /* after it left: its reads are over */
}

void rec_materialize(tf_engine *e, tf_record *p, uint64_t trigger_stream, const tf_why *why, const char *trigger)
{
    p->state = REC_MATERIALIZED;
    /* In log mode the producer already ran: only say what would happen. */
    int status = 0;
    if (e->cfg.mode == TF_MODE_FOLD && p->nholes)
        status = holes_fill(e, p, trigger_stream); /* only the bytes no later write owns */
    else if (e->cfg.mode == TF_MODE_FOLD && p->replay.run)
        status = p->replay.run(p->replay.arg, trigger_stream);
    if (p->gemm) /* a deferred GEMM is no transpose: counted apart */
        e->n.gemms_run++;
    else
        e->n.materialized++;
    if (status)
        e->n.replays_failed++;
    else if (e->cfg.mode == TF_MODE_FOLD && p->replay.run)
        late_note(e, p, true); /* the replay read the source and wrote the destination just now */
    log_materialize(e, p, why, trigger, status);
    rec_discard(e, p);
}

void rec_drop(tf_engine *e, tf_record *p, const tf_why *why)
{
    p->state = REC_DROPPED;
    if (p->gemm) {
        e->n.gemms_dropped++;
    } else {
        e->n.never_run++;
        e->n.bytes_saved += rec_bytes(p);
        e->n.launches_saved++;
    }
    if (p->folds)
        late_note(e, p, false); /* folded GEMMs read the source after the transpose's place */
    log_drop(e, p, why);
    rec_discard(e, p);
}

void rec_init(tf_engine *e)
{
    e->pending_anchor.id = 0; /* ids start at 1 */
    HASH_ADD(hh, e->pending, id, sizeof e->pending_anchor.id, &e->pending_anchor);
}

void rec_fini(tf_engine *e)
{
    HASH_CLEAR(hh, e->pending);
}

tf_record *rec_find(tf_engine *e, uint64_t id)
{
    tf_record *p = e->newest;
    if (p && p->id == id)
        return p;
    p = NULL;
    if (id)
        HASH_FIND(hh, e->pending, &id, sizeof id, p);
    return p;
}

bool tf_record_get(tf_engine *e, uint64_t id, tf_transpose_desc *d)
{
    tf_record *p = rec_find(e, id);
    if (p)
        *d = p->d;
    return p != NULL;
}

int tf_record_run_to(tf_engine *e, uint64_t id, uint64_t dst, uint64_t stream)
{
    tf_record *p = rec_find(e, id);
    if (!p || !p->replay.run_to)
        return -1;
    return p->replay.run_to(p->replay.arg, dst, stream);
}
