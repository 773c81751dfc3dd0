/* The engine's marks in stream order (tf_sync_ops, analysis/engine/late.c) as
 * CUDA events transfold records itself (events.c): created without timing, recorded
 * on the record's stream, queried (cudaEventQuery) until complete, waited
 * on by other streams (cudaStreamWaitEvent). Called with the engine locked
 * and the depth raised, so these calls are not seen as the program's. */
#include "streams/stream_id.h"
#include "streams/events.h"
#include "tables/hooks.h"
#include "core/setup.h"
#include "streams/replay.h"
#include "streams/stream_order.h"

/* Released events are kept for the next mark (the engine's lock guards
 * the pool): a mark is then one event record. */
#define TF_SPARE_EVENTS 32
static void *spare[TF_SPARE_EVENTS];
static int nspare;

/* After our own runtime call: a call that succeeded left no error for the
 * program's next cudaGetLastError, so only a failure needs the error put
 * back as it was (pl_rt_error_release's two runtime calls). */
static bool settled(int held, bool ok)
{
    if (!ok)
        pl_rt_error_release(held);
    return ok;
}

static void *mark(void *ctx, uint64_t stream)
{
    (void)ctx;
    int held = pl_rt_error_hold();
    void *ev = nspare ? spare[--nspare] : NULL;
    if (!ev && !settled(held, pl_event_create(&ev) == 0))
        return NULL;
    if (pl_event_record(ev, (void *)(uintptr_t)pl_stream_arg(stream)) != 0) {
        pl_event_destroy(ev);
        pl_rt_error_release(held);
        return NULL;
    }
    return ev;
}

static bool remark(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    int held = pl_rt_error_hold();
    return settled(held, pl_event_record(m, (void *)(uintptr_t)pl_stream_arg(stream)) == 0);
}

/* Only success counts as done: not ready, and errors too, keep the mark. */
static bool done(void *ctx, void *m)
{
    (void)ctx;
    int held = pl_rt_error_hold();
    return settled(held, pl_event_query(m) == 0);
}

static void wait(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    int held = pl_rt_error_hold();
    settled(held, pl_stream_wait(stream, m) == cudaSuccess);
}

static void release(void *ctx, void *m)
{
    (void)ctx;
    if (nspare < TF_SPARE_EVENTS) { /* complete: ready to be recorded again */
        spare[nspare++] = m;
        return;
    }
    int held = pl_rt_error_hold();
    pl_event_destroy(m);
    pl_rt_error_release(held);
}

/* Only asked while a capture may be in progress (stream_order.c). */
static bool capturing(void *ctx, uint64_t stream)
{
    (void)ctx;
    return pl_capture_active() && pl_stream_capturing(stream);
}

/* The engine's config gets these before it is made (core/setup.h). */
static void configure(tf_config *cfg)
{
    cfg->sync = (tf_sync_ops){ mark, done, wait, release, NULL, capturing, remark };
}

PL_SETUP(late_marks, .configure = configure);
