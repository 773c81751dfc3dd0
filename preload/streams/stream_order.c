/* Calls that order streams against each other or against the host, where a
 * replay queued later would land in the wrong place:
 * - a host function (cudaLaunchHostFunc, cudaStreamAddCallback, driver
 *   forms): a replay queued behind one waits for it, and if the function
 *   waits for the host, for whatever the host does next; a synchronize on a
 *   stream ordered after the replay would never return. Every pending
 *   record runs before a host function is queued (a host function on the
 *   legacy stream holds up every blocking stream, an event can carry it to
 *   any other);
 * - an event wait that makes a stream join a capture (the event was
 *   recorded in a capturing stream): the stream's records run before it
 *   joins, so that no GEMM folded onto them is captured and no replay of
 *   them lands in the graph. Streams that joined are remembered, and their
 *   records (captured ones) run before the capture ends. */
#include "calls/access_hook.h"
#include "calls/describe.h"
#include "streams/stream_order.h"
#include "streams/events.h"

#include <stdatomic.h>

static _Atomic int captures; /* captures begun and not yet ended, roughly */

#define TF_MAX_JOINED 64
static uint64_t joined[TF_MAX_JOINED];
static int njoined;

static void host_function(uint64_t stream)
{
    if (pl_watching())
        pl_note_materialize_all(stream, TF_WHY(host_function));
}

bool pl_stream_capturing(uint64_t stream)
{
    return pl_stream_is_capturing((void *)(uintptr_t)pl_stream_arg(stream));
}

/* Before the wait: a stream not capturing yet may be about to join one. */
static bool wait_before(uint64_t stream)
{
    if (atomic_load(&captures) <= 0 || !pl_active() || pl_stream_capturing(stream))
        return false;
    if (pl_watching())
        pl_note_materialize_stream(stream, TF_WHY(capture_joins));
    return true;
}

static void wait_after(uint64_t stream, bool maybe_joined)
{
    if (!maybe_joined || !pl_stream_capturing(stream))
        return;
    tf_engine *e = pl_lock();
    if (njoined < TF_MAX_JOINED)
        joined[njoined++] = stream;
    pl_unlock(e);
}

bool pl_capture_active(void)
{
    return atomic_load(&captures) > 0;
}

void pl_captures_changed(int delta)
{
    atomic_fetch_add(&captures, delta);
}

void pl_capture_joined_end(void)
{
    tf_engine *e = pl_lock();
    int n = njoined;
    uint64_t s[TF_MAX_JOINED];
    for (int i = 0; i < n; i++)
        s[i] = joined[i];
    njoined = 0;
    pl_unlock(e);
    for (int i = 0; i < n; i++)
        pl_note_materialize_stream(s[i], TF_WHY(capture_ends));
}

#define WAIT_HOOK(RET, MISSING, NAME, STREAM_T, EVENT_T, ID)               \
    RET NAME(STREAM_T s, EVENT_T ev, unsigned int flags)                   \
    {                                                                      \
        TF_REAL_OR(NAME, MISSING);                                         \
        bool maybe = wait_before(ID(s));                                   \
        RET r = TF_PASS(real(s, ev, flags));                               \
        if (maybe && r == 0)                                               \
            wait_after(ID(s), maybe);                                      \
        return r;                                                          \
    }

WAIT_HOOK(cudaError_t, TF_MISSING_CUDART, cudaStreamWaitEvent, cudaStream_t, cudaEvent_t, TF_STREAM)
WAIT_HOOK(cudaError_t, TF_MISSING_CUDART, cudaStreamWaitEvent_ptsz, cudaStream_t, cudaEvent_t, TF_PTSZ)
WAIT_HOOK(CUresult, TF_MISSING_CUDA, cuStreamWaitEvent, CUstream, CUevent, TF_STREAM)
WAIT_HOOK(CUresult, TF_MISSING_CUDA, cuStreamWaitEvent_ptsz, CUstream, CUevent, TF_PTSZ)

#define HOST_FN_HOOK(RET, MISSING, NAME, PARAMS, ARGS, ID) \
    TF_BEFORE_HOOK(RET, MISSING, NAME, PARAMS, ARGS, host_function(ID(s)))

HOST_FN_HOOK(cudaError_t, TF_MISSING_CUDART, cudaLaunchHostFunc, (cudaStream_t s, cudaHostFn_t f, void *d), (s, f, d),
             TF_STREAM)
HOST_FN_HOOK(cudaError_t, TF_MISSING_CUDART, cudaLaunchHostFunc_ptsz, (cudaStream_t s, cudaHostFn_t f, void *d),
             (s, f, d), TF_PTSZ)
HOST_FN_HOOK(cudaError_t, TF_MISSING_CUDART, cudaStreamAddCallback,
             (cudaStream_t s, cudaStreamCallback_t f, void *d, unsigned int fl), (s, f, d, fl), TF_STREAM)
HOST_FN_HOOK(cudaError_t, TF_MISSING_CUDART, cudaStreamAddCallback_ptsz,
             (cudaStream_t s, cudaStreamCallback_t f, void *d, unsigned int fl), (s, f, d, fl), TF_PTSZ)
HOST_FN_HOOK(CUresult, TF_MISSING_CUDA, cuLaunchHostFunc, (CUstream s, CUhostFn f, void *d), (s, f, d), TF_STREAM)
HOST_FN_HOOK(CUresult, TF_MISSING_CUDA, cuLaunchHostFunc_ptsz, (CUstream s, CUhostFn f, void *d), (s, f, d), TF_PTSZ)
HOST_FN_HOOK(CUresult, TF_MISSING_CUDA, cuStreamAddCallback, (CUstream s, CUstreamCallback f, void *d, unsigned int fl),
             (s, f, d, fl), TF_STREAM)
HOST_FN_HOOK(CUresult, TF_MISSING_CUDA, cuStreamAddCallback_ptsz,
             (CUstream s, CUstreamCallback f, void *d, unsigned int fl), (s, f, d, fl), TF_PTSZ)
