/* Hooks of calls that order streams against each other or against the
 * host, runtime and driver alike (stream_order.c keeps what they learn):
 * - a host function (cudaLaunchHostFunc, cudaStreamAddCallback, driver
 *   forms): every pending record runs before one is queued;
 * - an event wait that makes a stream join a capture: the stream's records
 *   run before it joins, and it is remembered so that its records run
 *   before the capture ends. */
#include <stdatomic.h>

#include "calls/access_hook.h"
#include "calls/describe.h"
#include "streams/stream_order.h"

static void host_function(uint64_t stream)
{
    if (pl_watching())
        pl_note_materialize_all(stream, TF_WHY(host_function));
}

/* Before the wait: a stream not capturing yet may be about to join one. */
static bool wait_before(uint64_t stream)
{
    if (atomic_load(&pl_captures_now) <= 0 || !pl_active() || pl_stream_capturing(stream))
        return false;
    if (pl_watching())
        pl_note_materialize_stream(stream, TF_WHY(capture_joins));
    return true;
}

static void wait_after(uint64_t stream, bool maybe_joined)
{
    if (!maybe_joined || !pl_stream_capturing(stream))
        return;
    pl_capture_joined_add(stream);
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
