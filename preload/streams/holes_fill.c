/* Materialising a pending transpose with holes (analysis/engine/holes.c):
 * the caching allocator gave part of its destination to a newer tensor,
 * so the producer is replayed into scratch memory laid out like the
 * destination (its run_to, as verify mode does) and only the bytes no
 * later write owns are copied back, all on the record's stream, in its
 * context: replay, then each device-to-device copy, then the host waits
 * for an event after the copies and frees the scratch (a stream being
 * captured cannot be waited on: its scratch is left allocated). The
 * trigger's stream is then ordered after the record's (replay.c). Only
 * kernel launches are filled: their context is the record's ctx. Called
 * with the engine locked; pl_replay_issue raises the depth, so these
 * calls are not the program's. */
#include <string.h>

#include "core/setup.h"
#include "core/state.h"
#include "streams/events.h"
#include "streams/replay.h"
#include "streams/scratch.h"
#include "streams/stream_id.h"
#include "streams/stream_order.h"
#include "tables/hooks.h"

typedef struct fill_call {
    const tf_replay *r;
    const tf_transpose_desc *d;
    const tf_range *keep;
    int n;
} fill_call;

/* The scratch, once the copies queued before on `stream` have read it. */
static void scratch_done(uint64_t s, uint64_t stream)
{
    if (pl_capture_active() && pl_stream_capturing(stream))
        return; /* the graph reads it later: left allocated */
    void *ev = NULL;
    bool waited = pl_event_create(&ev) == 0 && pl_event_record(ev, (void *)(uintptr_t)pl_stream_arg(stream)) == 0 &&
                  pl_event_sync(ev) == 0;
    if (ev)
        pl_event_destroy(ev);
    if (waited)
        pl_scratch_free(s); /* else left allocated: the copies may still read it */
}

static int fill_issue(void *arg)
{
    fill_call *c = arg;
    tf_range fp = tf_view_footprint(&c->d->dst);
    int held = pl_rt_error_hold();
    uint64_t s = pl_scratch_alloc(fp.hi - fp.lo);
    int st = s ? c->r->run_to(c->r->arg, s + (c->d->dst.addr - fp.lo), c->d->stream) : -1;
    for (int i = 0; st == 0 && i < c->n; i++)
        st = pl_scratch_copy(c->keep[i].lo, s + (c->keep[i].lo - fp.lo), c->keep[i].hi - c->keep[i].lo, c->d->stream);
    if (s)
        scratch_done(s, c->d->stream);
    pl_rt_error_release(held);
    return st;
}

static int fill(void *ctx, const tf_replay *r, const tf_transpose_desc *d, const tf_range *keep, int n,
                uint64_t trigger)
{
    (void)ctx;
    fill_call c = { r, d, keep, n };
    return pl_replay_issue((pl_place){ -1, (void *)(uintptr_t)d->ctx }, d->stream, &trigger, fill_issue, &c);
}

/* Launches (ATen's copies, ruled kernels): their ctx is a driver context. */
static bool eligible(void *ctx, const tf_transpose_desc *d)
{
    (void)ctx;
    return d->producer && (d->producer == TF_PRODUCER_ATEN || strcmp(d->producer, TF_PRODUCER_ATEN) == 0 ||
                           strcmp(d->producer, "kernel") == 0);
}

static void configure(tf_config *cfg)
{
    cfg->holes = (tf_hole_ops){ fill, eligible, NULL };
}

PL_SETUP(holes_fill, .configure = configure);
