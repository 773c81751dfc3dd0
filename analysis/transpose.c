/* Producers: a recognised transpose becomes a pending record (fold mode), a
 * shadow record (log mode: it runs, and we track what would happen), or runs
 * as an ordinary call when it cannot be deferred safely. */
#include <stdio.h>

#include "internal.h"

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

static void producer_access(const tf_transpose_desc *d, const char *api, tf_access *a)
{
    tf_access_init(a, api, d->stream);
    tf_access_read(a, tf_view_footprint(&d->src));
    tf_access_write(a, d->dst);
}

static bool in_device_memory(const tf_alloc_entry *a)
{
    return a && (a->kind == TF_MEM_DEVICE || a->kind == TF_MEM_POOL);
}

static tf_range range_of(const tf_alloc_entry *a)
{
    return a ? (tf_range){a->base, a->base + a->size} : (tf_range){0, 0};
}

/* Why the engine will not defer this producer, or NULL. */
static const char *engine_refusal(const tf_engine *e, const tf_alloc_entry *const at[2], const tf_transpose_desc *d,
                                  const char **key,
                                  char *buf, size_t len)
{
    if (!tf_view_valid(&d->src) || !tf_view_valid(&d->dst)) {
        *key = "shape";
        return "views invalid";
    }
    if (tf_range_overlaps(tf_view_footprint(&d->src), tf_view_footprint(&d->dst))) {
        *key = "in-place";
        return "source and destination overlap";
    }
    if (!tf_scale_foldable(d->alpha, e->cfg.scales)) {
        *key = "scale";
        snprintf(buf, len, "scale %g%+gi is not %s", d->alpha.re, d->alpha.im,
                 e->cfg.scales == TF_SCALES_POW2 ? "1 or a power of two" : "1 (TRANSFOLD_SCALES=exact)");
        return buf;
    }
    if (!in_device_memory(at[0]) || !in_device_memory(at[1])) {
        *key = "memory";
        return "operands not inside device allocations seen being made (managed, host or unknown memory)";
    }
    /* Captured work runs when the graph does, not now: what the program
     * does meanwhile outside the capture is not ordered after it. */
    if (e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, d->stream)) {
        *key = "capture";
        return "issued into a stream capture: it runs in the graph";
    }
    return NULL;
}

bool tf_transpose_begin(tf_engine *e, const tf_transpose_desc *d, tf_replay replay, const char *refuse)
{
    tf_access a;
    producer_access(d, d->producer, &a);
    e->n.seen++;
    shadow_set(e, 0);
    if (e->late)
        late_order(e, &a);
    effects_before(e, &a);
    char buf[128];
    const char *key = "producer";
    const tf_alloc_entry *at[2] = {NULL, NULL}; /* the allocations holding src and dst */
    if (!refuse) {
        at[0] = alloc_find(e, tf_view_footprint(&d->src));
        at[1] = alloc_find(e, tf_view_footprint(&d->dst));
    }
    const char *why = refuse ? refuse : engine_refusal(e, at, d, &key, buf, sizeof buf);
    if (why) {
        log_refuse_transpose(e, d, key, why);
        if (replay.release)
            replay.release(replay.arg);
        return false;
    }
    /* Logically the producer has written its destination now. */
    effects_after(e, &a);
    bool fold = e->cfg.mode == TF_MODE_FOLD;
    if (!fold && replay.release) { /* log mode: the producer runs for real */
        replay.release(replay.arg);
        replay = (tf_replay){0};
    }
    tf_record *p = rec_create(e, d, replay, range_of(at[0]), range_of(at[1]));
    if (!p) {
        if (replay.release)
            replay.release(replay.arg);
        return false;
    }
    e->n.deferred++;
    shadow_set(e, fold ? 0 : p->id);
    log_transpose(e, p);
    return fold;
}

void tf_transpose_end(tf_engine *e, const tf_transpose_desc *d, bool ok)
{
    uint64_t id = shadow_take(e);
    if (id) {
        tf_record *p = rec_find(e, id);
        if (p && !ok) { /* it never ran: there is nothing to shadow */
            e->n.deferred--;
            rec_discard(e, p);
        }
        return;
    }
    tf_access a;
    producer_access(d, d->producer, &a);
    if (ok)
        effects_after(e, &a);
}
