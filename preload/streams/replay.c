/* Ordering and device selection for replays of deferred producers. */
#include "streams/replay.h"
#include "streams/stream_id.h"
#include "streams/events.h"
#include "tables/hooks.h"
#include "core/state.h"
#include "streams/stream_order.h"

/* Orders `trigger` after the work queued so far on `recorded` (both
 * stream ids, pl_stream_id), in two steps: the mark (an event recorded on
 * `recorded`) while the record's device/context is current, since an event
 * must be recorded in its stream's context; the wait once the trigger's own
 * device is current again, since 0 and cudaStreamPerThread name the stream
 * of the current device. Nothing when they are the same stream. Each
 * returns 0 or the CUDA status (the driver's, for a program without a
 * runtime library: events.h); the wait consumes the mark. */
typedef struct order { void *event; uint64_t trigger; } order;

static int order_mark(uint64_t recorded, uint64_t trigger, order *o)
{
    *o = (order){ NULL, trigger };
    if (recorded == trigger)
        return 0;
    int held = pl_rt_error_hold();
    void *ev = NULL;
    int r = pl_event_create(&ev);
    if (r == 0 && (r = pl_event_record(ev, (void *)(uintptr_t)pl_stream_arg(recorded))) != 0)
        pl_event_destroy(ev);
    if (r == 0)
        o->event = ev;
    pl_rt_error_release(held);
    return r;
}

int pl_stream_wait(uint64_t stream, void *event)
{
    /* A capturing stream cannot wait for work outside its capture (the
     * graph runs later, anywhere): the host waits for it now instead. */
    if (pl_capture_active() && pl_stream_capturing(stream))
        return pl_event_sync(event);
    return pl_event_wait((void *)(uintptr_t)pl_stream_arg(stream), event);
}

static int order_wait(order *o)
{
    if (!o->event)
        return 0;
    int held = pl_rt_error_hold();
    int r = pl_stream_wait(o->trigger, o->event);
    pl_event_destroy(o->event); /* legal while pending: released once it completes */
    o->event = NULL;
    pl_rt_error_release(held);
    return r;
}

/* Makes `device` current for a replay; returns the device to restore, or -1
 * when nothing changed. */
static int device_enter(int device)
{
    int now = pl_current_device();
    pl_fn_cudaSetDevice set = TF_REAL(cudaSetDevice);
    if (device < 0 || now == device || !set)
        return -1;
    int held = pl_rt_error_hold();
    bool moved = set(device) == cudaSuccess;
    pl_rt_error_release(held);
    return moved ? now : -1;
}

static void device_leave(int previous)
{
    pl_fn_cudaSetDevice set = TF_REAL(cudaSetDevice);
    if (previous < 0 || !set)
        return;
    int held = pl_rt_error_hold();
    set(previous);
    pl_rt_error_release(held);
}

void *pl_context_current(void)
{
    CUcontext ctx = NULL;
    pl_fn_cuCtxGetCurrent get = TF_REAL(cuCtxGetCurrent);
    if (get)
        get(&ctx);
    return ctx;
}

/* Switches to another driver context for a replay; returns what to
 * restore (NULL when nothing changed). */
static void *context_enter(void *ctx)
{
    void *now = pl_context_current();
    pl_fn_cuCtxSetCurrent set = TF_REAL(cuCtxSetCurrent);
    if (!ctx || ctx == now || !set || set(ctx) != CUDA_SUCCESS)
        return NULL;
    return now ? now : ctx; /* restoring "no context" is not possible; keep ctx */
}

static void context_leave(void *previous)
{
    pl_fn_cuCtxSetCurrent set = TF_REAL(cuCtxSetCurrent);
    if (previous && set)
        set(previous);
}

int pl_replay_issue(pl_place at, uint64_t stream, const uint64_t *trigger, int (*issue)(void *arg), void *arg)
{
    order o = {0};
    pl_depth++;
    int dev = device_enter(at.device);
    void *ctx = context_enter(at.ctx);
    int st = issue(arg); /* a failure is left for the caller's error reporting, as the producer's own would be */
    if (st == 0 && trigger)
        st = order_mark(stream, *trigger, &o);
    context_leave(ctx);
    device_leave(dev);
    if (st == 0 && trigger)
        st = order_wait(&o);
    pl_depth--;
    return st;
}
