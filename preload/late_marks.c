/* The engine's marks in stream order (tf_sync_ops, analysis/late.c) as
 * CUDA events transfold records itself: created without timing, recorded
 * on the record's stream, queried (cudaEventQuery) until complete, waited
 * on by other streams (cudaStreamWaitEvent). Called with the engine locked
 * and the depth raised, so these calls are not seen as the program's. */
#include "describe.h"
#include "hooks.h"
#include "late_marks.h"
#include "replay.h"
#include "stream_order.h"

/* Released events are kept for the next mark (the engine's lock guards
 * the pool): a mark is then one cudaEventRecord. */
#define TF_SPARE_EVENTS 32
static cudaEvent_t spare[TF_SPARE_EVENTS];
static int nspare;

/* After our own runtime call: a call that succeeded left no error for the
 * program's next cudaGetLastError, so only a failure needs the error put
 * back as it was (tf_rt_error_release's two runtime calls). */
static bool settled(int held, bool ok)
{
    if (!ok)
        tf_rt_error_release(held);
    return ok;
}

static void *mark(void *ctx, uint64_t stream)
{
    (void)ctx;
    tf_fn_cudaEventCreateWithFlags create = TF_REAL(cudaEventCreateWithFlags);
    tf_fn_cudaEventRecord record = TF_REAL(cudaEventRecord);
    tf_fn_cudaEventDestroy destroy = TF_REAL(cudaEventDestroy);
    if (!create || !record || !destroy)
        return NULL;
    int held = tf_rt_error_hold();
    cudaEvent_t ev = nspare ? spare[--nspare] : NULL;
    if (!ev && !settled(held, create(&ev, cudaEventDisableTiming) == cudaSuccess))
        return NULL;
    if (record(ev, (cudaStream_t)(uintptr_t)tf_stream_arg(stream)) != cudaSuccess) {
        destroy(ev);
        tf_rt_error_release(held);
        return NULL;
    }
    return ev;
}

static bool remark(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    tf_fn_cudaEventRecord record = TF_REAL(cudaEventRecord);
    if (!record)
        return false;
    int held = tf_rt_error_hold();
    return settled(held, record((cudaEvent_t)m, (cudaStream_t)(uintptr_t)tf_stream_arg(stream)) == cudaSuccess);
}

/* Only success counts as done: not ready, and errors too, keep the mark. */
static bool done(void *ctx, void *m)
{
    (void)ctx;
    tf_fn_cudaEventQuery query = TF_REAL(cudaEventQuery);
    if (!query)
        return false;
    int held = tf_rt_error_hold();
    return settled(held, query((cudaEvent_t)m) == cudaSuccess);
}

static void wait(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    int held = tf_rt_error_hold();
    settled(held, tf_stream_wait(stream, m) == cudaSuccess);
}

static void release(void *ctx, void *m)
{
    (void)ctx;
    if (nspare < TF_SPARE_EVENTS) { /* complete: ready to be recorded again */
        spare[nspare++] = (cudaEvent_t)m;
        return;
    }
    tf_fn_cudaEventDestroy destroy = TF_REAL(cudaEventDestroy);
    if (!destroy)
        return;
    int held = tf_rt_error_hold();
    destroy((cudaEvent_t)m);
    tf_rt_error_release(held);
}

/* Only asked while a capture may be in progress (stream_order.c). */
static bool capturing(void *ctx, uint64_t stream)
{
    (void)ctx;
    return tf_capture_active() && tf_stream_capturing(stream);
}

tf_sync_ops tf_late_marks(void)
{
    return (tf_sync_ops){ mark, done, wait, release, NULL, capturing, remark };
}
