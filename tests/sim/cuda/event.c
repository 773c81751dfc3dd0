/* Events record host time: work runs at call time, so the host clock at
 * record time is when the preceding work "finished". With queues on
 * (async.h) a record is an item of its stream: the time is taken, and the
 * event completes, when it runs. A record into a capturing stream marks
 * the event as part of that capture (waiting on it joins the capture). */
#include "async.h"

#include <stdlib.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static bool event_ok(CUevent e) { return e && e->magic == SIM_MAGIC_EVENT; }

CUresult cuEventCreate(CUevent *out, unsigned int flags)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *e = (struct CUevent_st){.magic = SIM_MAGIC_EVENT, .flags = flags};
    *out = e;
    return CUDA_SUCCESS;
}

static CUresult record(CUevent e, CUstream s, bool per_thread)
{
    if (!event_ok(e) || !sim_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    if (sim_capturing(s)) {
        e->capture = s->origin;
        return CUDA_SUCCESS;
    }
    e->capture = NULL;
    e->recorded = true;
    if (sim_queued())
        sim_event_record(e, s, per_thread);
    else
        e->ms = now_ms();
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent e, CUstream s) { return record(e, s, false); }
CUresult cuEventRecord_ptsz(CUevent e, CUstream s) { return record(e, s, true); }
CUresult cuEventRecordWithFlags(CUevent e, CUstream s, unsigned int f) { (void)f; return record(e, s, false); }
CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream s, unsigned int f) { (void)f; return record(e, s, true); }

CUresult cuEventSynchronize(CUevent e)
{
    if (!event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    if (sim_queued())
        sim_event_sync(e);
    return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent e)
{
    if (!event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    return !sim_queued() || sim_event_done(e) ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    if (!event_ok(start) || !event_ok(end) || !start->recorded || !end->recorded ||
        ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_HANDLE;
    if (sim_queued() && (!sim_event_done(start) || !sim_event_done(end)))
        return CUDA_ERROR_NOT_READY;
    *ms = (float)(end->ms - start->ms);
    return CUDA_SUCCESS;
}

/* The pre-12.8 export (cuda.h maps the name to _v2); same contract here. */
#undef cuEventElapsedTime
SIM_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) { return cuEventElapsedTime_v2(ms, start, end); }

CUresult cuEventDestroy_v2(CUevent e)
{
    if (!event_ok(e))
        return CUDA_ERROR_INVALID_HANDLE;
    e->magic = 0; /* kept allocated: stale handles are refused, not read after free */
    return CUDA_SUCCESS;
}
