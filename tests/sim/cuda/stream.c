/* Streams. All work runs at call time, in call order, so a stream is only a
 * validated handle with flags, a priority and a capture flag. Destroyed
 * streams keep their memory (magic cleared) so a stale handle is refused
 * instead of being read after free. */
#include "internal.h"

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
    s->magic = 0;
    return CUDA_SUCCESS;
}

static CUresult check(CUstream s) { return sim_stream_ok(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; }

CUresult cuStreamSynchronize(CUstream s) { return check(s); }
CUresult cuStreamSynchronize_ptsz(CUstream s) { return check(s); }
CUresult cuStreamQuery(CUstream s) { return check(s); }
CUresult cuStreamQuery_ptsz(CUstream s) { return check(s); }

static CUresult wait_event(CUstream s, CUevent e)
{
    if (!sim_stream_ok(s) || !e || e->magic != SIM_MAGIC_EVENT)
        return CUDA_ERROR_INVALID_HANDLE;
    return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags) { (void)flags; return wait_event(s, e); }
CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags) { (void)flags; return wait_event(s, e); }

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
