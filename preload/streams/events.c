/* See events.h. The runtime's functions when present (a program's shared
 * libcudart); the driver's otherwise. */
#include "streams/events.h"
#include "tables/hooks.h"
#include "core/state.h"

/* The runtime's RT(RT_ARGS) when the program has a runtime library, else
 * the driver's DRV(DRV_ARGS); a status either way. */
#define PL_RT_OR_DRIVER(RT, RT_ARGS, DRV, DRV_ARGS)                                  \
    do {                                                                             \
        pl_fn_##RT rt = TF_REAL(RT);                                                 \
        if (rt)                                                                      \
            return rt RT_ARGS;                                                       \
        pl_fn_##DRV drv = TF_REAL(DRV);                                              \
        return drv ? (int)drv DRV_ARGS : cudaErrorSharedObjectSymbolNotFound;        \
    } while (0)

int pl_event_create(void **event)
{
    PL_RT_OR_DRIVER(cudaEventCreateWithFlags, ((cudaEvent_t *)event, cudaEventDisableTiming),
                    cuEventCreate, ((CUevent *)event, CU_EVENT_DISABLE_TIMING));
}

int pl_event_record(void *event, void *stream)
{
    PL_RT_OR_DRIVER(cudaEventRecord, ((cudaEvent_t)event, (cudaStream_t)stream),
                    cuEventRecord, ((CUevent)event, (CUstream)stream));
}

int pl_event_query(void *event)
{
    PL_RT_OR_DRIVER(cudaEventQuery, ((cudaEvent_t)event), cuEventQuery, ((CUevent)event));
}

int pl_event_sync(void *event)
{
    PL_RT_OR_DRIVER(cudaEventSynchronize, ((cudaEvent_t)event), cuEventSynchronize, ((CUevent)event));
}

int pl_event_destroy(void *event)
{
    PL_RT_OR_DRIVER(cudaEventDestroy, ((cudaEvent_t)event), cuEventDestroy_v2, ((CUevent)event));
}

int pl_event_wait(void *stream, void *event)
{
    PL_RT_OR_DRIVER(cudaStreamWaitEvent, ((cudaStream_t)stream, (cudaEvent_t)event, 0),
                    cuStreamWaitEvent, ((CUstream)stream, (CUevent)event, 0));
}

bool pl_stream_is_capturing(void *stream)
{
    pl_fn_cudaStreamIsCapturing rt = TF_REAL(cudaStreamIsCapturing);
    pl_fn_cuStreamIsCapturing drv = TF_REAL(cuStreamIsCapturing);
    if (rt) {
        enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        return TF_PASS(rt((cudaStream_t)stream, &st)) == cudaSuccess && st == cudaStreamCaptureStatusActive;
    }
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    return drv && drv((CUstream)stream, &st) == CUDA_SUCCESS && st == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}
