/* Streams: validated handles with flags, a priority, a capture state and,
 * with queues on (async.h), a work queue; otherwise all work runs at call
 * time, in call order, and there is never anything to wait for. Destroyed
 * streams keep their memory (magic cleared) so a stale handle is refused
 * instead of being read after free. */
#include "async.h"

#include <stdlib.h>

static bool is_builtin(CUstream s)
{
    return s == NULL || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD;
}

bool sim_stream_ok(CUstream s)
{
    return is_builtin(s) || s->magic == SIM_MAGIC_STREAM;
}

CUresult sim_stream_query(CUstream s, const void *out)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    return sim_stream_ok(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult create(CUstream *out, unsigned flags, int priority)
{
    if (!out || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
        return CUDA_ERROR_INVALID_VALUE;
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    /* Priorities clamp to the range cuCtxGetStreamPriorityRange reports. */
    *s = (struct CUstream_st){.magic = SIM_MAGIC_STREAM, .flags = flags,
                              .priority = priority < -5 ? -5 : priority > 0 ? 0 : priority};
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream *s, unsigned int flags) { return create(s, flags, 0); }
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned int flags, int prio) { return create(s, flags, prio); }

CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream s)
{
    if (is_builtin(s) || s->magic != SIM_MAGIC_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    sim_capture_discard(s); /* a capture in progress dies with its stream */
    if (sim_queued())
        sim_stream_retire(s);
    s->magic = 0;
    return CUDA_SUCCESS;
}

static CUresult check(CUstream s) { return sim_stream_ok(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

/* A capturing stream cannot be waited for: that would end nothing. */
static CUresult synchronize(CUstream s, bool per_thread)
{
    CUresult r = check(s);
    if (r == CUDA_SUCCESS && sim_capturing(s))
        r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (r == CUDA_SUCCESS && sim_queued())
        sim_wait_stream(s, per_thread);
    return r;
}

static CUresult query(CUstream s, bool per_thread)
{
    CUresult r = check(s);
    if (r == CUDA_SUCCESS && sim_queued() && !sim_capturing(s) && !sim_stream_idle(s, per_thread))
        r = CUDA_ERROR_NOT_READY;
    return r;
}

CUresult cuStreamSynchronize(CUstream s) { return synchronize(s, false); }
CUresult cuStreamSynchronize_ptsz(CUstream s) { return synchronize(s, true); }
CUresult cuStreamQuery(CUstream s) { return query(s, false); }
CUresult cuStreamQuery_ptsz(CUstream s) { return query(s, true); }

/* Waiting on an event recorded in a capture joins that capture. */
static CUresult wait_event(CUstream s, CUevent e, bool per_thread)
{
    if (!sim_stream_ok(s) || !e || e->magic != SIM_MAGIC_EVENT)
        return CUDA_ERROR_INVALID_HANDLE;
    if (is_builtin(s) && e->capture && e->capture->capturing)
        return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT; /* default streams cannot join a capture */
    if (sim_capture_join(s, e))
        return CUDA_SUCCESS;
    if (sim_capturing(s))
        return CUDA_SUCCESS; /* an edge from outside the graph: already satisfied here */
    if (sim_queued())
        sim_event_wait(s, per_thread, e);
    return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) { (void)flags; return wait_event(s, e, false); }
CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags) { (void)flags; return wait_event(s, e, true); }

static CUresult get_priority(CUstream s, int *prio)
{
    CUresult r = sim_stream_query(s, prio);
    if (r == CUDA_SUCCESS)
        *prio = is_builtin(s) ? 0 : s->priority;
    return r;
}

static CUresult get_flags(CUstream s, unsigned *flags)
{
    CUresult r = sim_stream_query(s, flags);
    if (r == CUDA_SUCCESS)
        *flags = is_builtin(s) ? 0 : s->flags;
    return r;
}

CUresult cuStreamGetPriority(CUstream s, int *p) { return get_priority(s, p); }
CUresult cuStreamGetPriority_ptsz(CUstream s, int *p) { return get_priority(s, p); }
CUresult cuStreamGetFlags(CUstream s, unsigned int *f) { return get_flags(s, f); }
CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned int *f) { return get_flags(s, f); }
