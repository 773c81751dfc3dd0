/* Producers: a recognised transpose becomes a pending record (fold mode), a
 * shadow record (log mode: it runs, and we track what would happen), or runs
 * as an ordinary call when it cannot be deferred safely. */
#include <stdio.h>

#include <string.h>

#include "engine/internal.h"

/* Log mode: the record a running producer shadows, from its begin to its
 * end. The hooks release the engine's lock around the real call, so other
 * threads' producers begin and end in between: the slot is the thread's
 * own (one producer at a time per thread; nested calls never reach the
 * engine). */
typedef struct shadow_slot { const tf_engine *e; uint64_t id; } shadow_slot;
/* initial-exec, as the preload's own thread-locals: the library is loaded
 * at start-up, and the default model costs a __tls_get_addr call a use. */
static __thread shadow_slot shadow __attribute__((tls_model("initial-exec")));

static void shadow_set(const tf_engine *e, uint64_t id)
{
    shadow = (shadow_slot){ id ? e : NULL, id };
}

static uint64_t shadow_take(const tf_engine *e)
{
    uint64_t id = shadow.e == e ? shadow.id : 0;
    shadow = (shadow_slot){ NULL, 0 };
    return id;
}

const char TF_PRODUCER_ATEN[] = "aten";

/* src_fp: d->src's footprint, which the caller has at hand. */
static void producer_access(const tf_transpose_desc *d, tf_range src_fp, tf_access *a)
{
    tf_access_init(a, d->producer, d->stream);
    tf_access_read(a, src_fp);
    tf_access_write(a, d->dst);
}

static bool in_device_memory(const tf_alloc_entry *a)
{
    return a && (a->kind == TF_MEM_DEVICE || a->kind == TF_MEM_POOL);
}

/* alloc_find's answer for r, the source (k 0) or destination (k 1) of a
 * producer: a program transposing into the same buffers again and again
 * asks the same, and while no allocation came or went since, the answer
 * is the one seen last (its entry still live). */
static const tf_alloc_entry *alloc_holding(tf_engine *e, int k, tf_range r)
{
    struct tf_alloc_seen *s = &e->alloc_seen[k];
    if (s->gen == e->alloc_gen && s->r.lo == r.lo && s->r.hi == r.hi)
        return s->a;
    const tf_alloc_entry *a = alloc_find(e, r);
    *s = (struct tf_alloc_seen){ e->alloc_gen, r, a };
    return a;
}

static tf_range range_of(const tf_alloc_entry *a)
{
    return a ? (tf_range){a->base, a->base + a->size} : (tf_range){0, 0};
}

/* Whether the engine will not defer this producer, and then why (*w);
 * fp: the footprints of its source and destination. */
static bool engine_refuses(const tf_engine *e, const tf_alloc_entry *const at[2], const tf_transpose_desc *d,
                           const tf_range fp[2], tf_why *w)
{
    if (!tf_view_valid(&d->src) || !tf_view_valid(&d->dst)) {
        *w = TF_WHY(shape_invalid);
        return true;
    }
    if (tf_range_overlaps(fp[0], fp[1])) {
        *w = TF_WHY(in_place);
        return true;
    }
    bool one = d->alpha.host && d->alpha.re == 1.0 && d->alpha.im == 0.0; /* foldable under every setting */
    if (!one && !tf_scale_foldable(d->alpha, e->cfg.scales)) {
        *w = e->cfg.scales == TF_SCALES_POW2 ? TF_WHY(scale_not_pow2) : TF_WHY(scale_not_one);
        w->real[0] = d->alpha.re;
        w->real[1] = d->alpha.im;
        return true;
    }
    if (!in_device_memory(at[0]) || !in_device_memory(at[1])) {
        *w = TF_WHY(memory);
        return true;
    }
    /* Captured work runs when the graph does, not now: what the program
     * does meanwhile outside the capture is not ordered after it. */
    if (e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, d->stream)) {
        *w = TF_WHY(capture);
        return true;
    }
    return false;
}

bool tf_transpose_begin(tf_engine *e, const tf_transpose_desc *d, tf_replay replay, tf_why refuse)
{
    return tf_transpose_begin_ref(e, d, &replay, refuse.key ? &refuse : NULL);
}

/* A replay the producer no longer needs. */
static void replay_release(const tf_replay *r)
{
    if (r->release)
        r->release(r->arg);
}

bool tf_transpose_begin_ref(tf_engine *e, const tf_transpose_desc *d, const tf_replay *replay, const tf_why *refuse)
{
    static const tf_replay none; /* log mode's record: the producer runs for real */
    tf_range fp[2] = { tf_view_footprint(&d->src), tf_view_footprint(&d->dst) }; /* computed once */
    tf_access a;
    producer_access(d, fp[0], &a);
    e->n.seen++;
    shadow_set(e, 0);
    if (e->late)
        late_order(e, &a);
    if (!refuse && e->cfg.output_fold && e->npending && output_fold_try(e, d, fp, replay))
        return true;
    tf_kept covered; /* nothing below runs a record or adds one before they are dropped */
    effects_before(e, &a, &covered);
    const tf_alloc_entry *at[2] = {NULL, NULL}; /* the allocations holding src and dst */
    if (!refuse) {
        at[0] = alloc_holding(e, 0, fp[0]);
        at[1] = alloc_holding(e, 1, fp[1]);
    }
    tf_why why;
    if (refuse || engine_refuses(e, at, d, fp, &why)) {
        log_refuse_transpose(e, d, refuse ? refuse : &why);
        replay_release(replay);
        return false;
    }
    /* Logically the producer has written its destination now. */
    effects_drop_kept(e, &a, &covered);
    bool fold = e->cfg.mode == TF_MODE_FOLD;
    if (!fold) {
        replay_release(replay);
        replay = &none;
    }
    const tf_range alloc[2] = { range_of(at[0]), range_of(at[1]) };
    tf_record *p = rec_create(e, d, replay, fp, alloc);
    if (!p) {
        replay_release(replay);
        return false;
    }
    bound_grow(e, fp);
    e->n.deferred++;
    shadow_set(e, fold ? 0 : p->id);
    log_transpose(e, p);
    return fold;
}

/* Lock-free: the slot is this thread's own. */
bool tf_transpose_end_needed(bool ok)
{
    if (!ok || !shadow.id)
        return true;
    shadow = (shadow_slot){ NULL, 0 };
    return false;
}

void tf_transpose_end(tf_engine *e, const tf_transpose_desc *d, bool ok)
{
    uint64_t id = shadow_take(e);
    if (id) {
        tf_record *p = ok ? NULL : rec_find(e, id);
        if (p) { /* it never ran: there is nothing to shadow */
            e->n.deferred--;
            rec_discard(e, p);
        }
        return;
    }
    tf_access a;
    producer_access(d, tf_view_footprint(&d->src), &a);
    if (ok)
        effects_after(e, &a);
}
