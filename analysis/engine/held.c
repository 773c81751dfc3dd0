/* Frees held for pending records (tf_hold_ops, engine.h).
 *
 * A stream-ordered free (cudaFreeAsync, cuMemFreeAsync) says the memory is
 * dead after everything queued on that stream so far. Made later on the
 * same stream, once the records reading the memory have run or died, the
 * free keeps that promise: nothing could reuse the bytes meanwhile, since
 * they were never given back. So a deferred GEMM reading them stays
 * deferred instead of running as called, and an output fold can still come
 * (PyTorch's cudaMallocAsync backend frees a weight gradient's inputs and
 * its cuBLAS workspace before AccumulateGrad copies the gradient
 * transposed); a transpose whose source tensor dies first stays deferred
 * as it does under the caching allocator, where the dead bytes wait for
 * their next writer.
 *
 * Only for records whose replay is queued on the free's stream: the free
 * queued after the replay needs no event; GEMMs folded onto a transpose's
 * source elsewhere are late reads, which the free is ordered after when
 * it is made (late.c), as at any free. The memory is forgotten as an
 * allocation at once (the program freed it: a later write into it is no
 * one's business); the engine keeps only a list (held_list.c). Bounded by
 * max_bytes; an allocation that runs out of memory gives every held free
 * back first (tf_holds_return). Log mode shadows it (log_hold). */
#include "engine/internal.h"

/* Log mode: what fold mode would hold, told and shadowed. The free is
 * made (nothing changes in log mode), but the shadow records it would have
 * been held for (transposes: log mode defers no GEMM) leave the source
 * index, as if the bytes could no longer change: in fold mode nothing could
 * reuse them. Only a record whose whole source lies in the allocation. */
static bool log_hold(tf_engine *e, const tf_held_free *f, const char *api)
{
    tf_alloc_entry *a = alloc_at(e, f->base);
    if (!a || a->kind != TF_MEM_POOL ||
        (e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, f->stream)))
        return false;
    tf_range ar = { a->base, a->base + a->size };
    int frozen = 0;
    for (bool again = true; again;) { /* the walk restarts after each removal */
        again = false;
        tf_icursor at = ITREE_START;
        tf_record *p;
        while (!again && (p = rec_next_src(e, ar, &at)))
            if (!p->gemm && held_by(p, ar, f->stream) && tf_range_contains(ar, p->src_fp)) {
                itree_remove(&e->pend_src, &p->by_src);
                p->src_frozen = again = true;
                frozen++;
            }
    }
    if (frozen) {
        tf_held_free told = *f;
        told.bytes = a->size;
        log_free_held(e, &told, api);
    }
    return false;
}

bool tf_free_hold(tf_engine *e, tf_held_free *f, const char *api)
{
    if (!e->cfg.hold.release || !e->npending || e->exiting)
        return false;
    if (e->cfg.mode == TF_MODE_LOG)
        return log_hold(e, f, api);
    if (e->cfg.mode != TF_MODE_FOLD)
        return false;
    tf_alloc_entry *a = alloc_at(e, f->base);
    if (!a || a->kind != TF_MEM_POOL || e->held_bytes + a->size > e->cfg.hold.max_bytes)
        return false;
    tf_range ar = { a->base, a->base + a->size };
    if (!held_still_read(e, ar, f->stream) ||
        (e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, f->stream)))
        return false;
    /* As at a free, but for the records it is held for. Should none be left
     * (nothing here runs them), the caller frees as usual: the allocation
     * is still known and nothing more happens at its tf_free_begin. */
    free_effect(e, ar, false, f->stream, api, true);
    free_effect(e, ar, true, 0, api, true);
    f->bytes = a->size;
    if (!held_still_read(e, ar, f->stream) || !held_push(e, f))
        return false;
    alloc_release(e, alloc_take(e, f->base));
    e->n.frees_held++;
    log_free_held(e, f, api);
    return true;
}

bool tf_holds_return(tf_engine *e, uint64_t stream, const char *api)
{
    if (!e->nheld)
        return false;
    tf_why why = TF_WHY(pool_exhausted, .str = {api});
    e->held_walking = true; /* the list stays as it is while its records run */
    for (size_t i = 0; i < e->nheld; i++) {
        tf_range r = { e->held[i].base, e->held[i].base + e->held[i].bytes };
        tf_icursor at = ITREE_START;
        tf_record *p;
        while ((p = rec_next_src(e, r, &at)))
            if (held_by(p, r, e->held[i].stream))
                rec_materialize(e, p, stream, &why, api);
    }
    e->held_walking = false;
    held_release_unused(e);
    return true;
}
