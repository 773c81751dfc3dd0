/* The engine's public entry points: lifetime, memory provenance, accesses
 * and forced materialisations. Producers are in transpose.c, consumers in
 * gemm.c. */
#include <stdlib.h>

#include "engine/internal.h"

tf_engine *tf_engine_new(const tf_config *cfg)
{
    tf_engine *e = calloc(1, sizeof *e);
    if (e) {
        e->cfg = *cfg;
        rec_init(e);
    }
    return e;
}

size_t tf_engine_pending(const tf_engine *e)
{
    return e->npending + e->nlate;
}

void tf_engine_free(tf_engine *e)
{
    if (!e)
        return;
    tf_record *p, *tmp;
    e->cfg.sync.mark = NULL; /* nothing runs after exit: no more late reads */
    e->exiting = true;       /* nor frees: the process takes its memory */
    tf_why why = TF_WHY(exit_never_freed);
    REC_EACH_PENDING(e, p, tmp)
        rec_drop(e, p, &why);
    rec_fini(e);
    summary_write(e);
    learn_free(e);
    rec_free_spares(e);
    alloc_clear(e);
    late_clear(e);
    held_clear(e);
    free(e);
}

void tf_alloc(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind)
{
    alloc_add(e, base, size, kind);
    learn_alloc(e, base, size);
}

bool tf_alloc_range(const tf_engine *e, uint64_t addr, tf_range *out)
{
    const tf_alloc_entry *a = addr + 1 > addr ? alloc_find(e, (tf_range){ addr, addr + 1 }) : NULL;
    if (!a || (a->kind != TF_MEM_DEVICE && a->kind != TF_MEM_POOL))
        return false;
    *out = (tf_range){ a->base, a->base + a->size };
    return true;
}

void free_effect(tf_engine *e, tf_range ar, bool dst, uint64_t stream, const char *api, bool hold)
{
    tf_icursor at = ITREE_START;
    tf_record *p;
    while ((p = dst ? rec_next_dst(e, ar, &at) : rec_next_src(e, ar, &at))) {
        tf_why why = dst ? TF_WHY(dst_freed, .str = {api}) : TF_WHY(src_freed, .str = {api});
        if (dst)
            rec_drop(e, p, &why);
        else if (!tf_range_overlaps(ar, p->dst_fp) && (!p->gemm || gemm_touches(p, ar)) &&
                 !(hold && held_by(p, ar, stream)))
            rec_materialize(e, p, stream, &why, api);
    }
}

void tf_free_begin(tf_engine *e, uint64_t base, uint64_t stream, const char *api)
{
    tf_alloc_entry *a = e->npending || e->late ? alloc_at(e, base) : NULL;
    if (e->late)
        late_order_free(e, a ? (tf_range){a->base, a->base + a->size} : (tf_range){base, base + 1}, stream);
    if (a)
        free_effect(e, (tf_range){a->base, a->base + a->size}, false, stream, api, false);
}

void tf_free_end(tf_engine *e, uint64_t base, const char *api, bool ok)
{
    tf_alloc_entry *a = ok ? alloc_take(e, base) : NULL;
    if (a)
        free_effect(e, (tf_range){a->base, a->base + a->size}, true, 0, api, false);
    if (a)
        alloc_release(e, a);
}

void tf_storage_freed(tf_engine *e, tf_range r, const char *api)
{
    tf_icursor at = ITREE_START;
    tf_record *p;
    while ((p = rec_next_dst(e, r, &at)))
        if (tf_range_contains(r, p->dst_fp)) {
            tf_why why = TF_WHY(dst_freed, .str = {api});
            rec_drop(e, p, &why);
        }
}

void tf_access_begin(tf_engine *e, const tf_access *a)
{
    if (e->late)
        late_order(e, a);
    effects_before(e, a, NULL);
}

void tf_access_end(tf_engine *e, const tf_access *a, bool ok)
{
    if (ok && e->npending)
        effects_after(e, a);
}

/* Walks every record: these calls are rare (handle destroyed, capture,
 * graph launch), and each hit leaves the table. */
static void materialize_if(tf_engine *e, uint64_t stream, uint64_t handle, int by, const tf_why *reason)
{
    tf_record *p, *tmp;
    REC_EACH_PENDING(e, p, tmp) {
        bool hit = by == 0 || (by == 1 && p->d.stream == stream) || (by == 2 && p->d.handle == handle);
        if (hit)
            rec_materialize(e, p, stream, reason, NULL);
    }
}

void tf_materialize_all(tf_engine *e, uint64_t trigger_stream, tf_why reason)
{
    materialize_if(e, trigger_stream, 0, 0, &reason);
}

void tf_materialize_stream(tf_engine *e, uint64_t stream, tf_why reason)
{
    materialize_if(e, stream, 0, 1, &reason);
}

void tf_materialize_handle(tf_engine *e, uint64_t handle, tf_why reason)
{
    materialize_if(e, 0, handle, 2, &reason);
}
