/* See events.h. The runtime's functions when present (a program's shared
 * libcudart); the driver's otherwise. */
#include "events.h"
#include "tables/hooks.h"
#include "state.h"

int pl_event_create(void **event)
{
    pl_fn_cudaEventCreateWithFlags rt = TF_REAL(cudaEventCreateWithFlags);
    pl_fn_cuEventCreate drv = TF_REAL(cuEventCreate);
    if (rt)
        return rt((cudaEvent_t *)event, cudaEventDisableTiming);
    return drv ? (int)drv((CUevent *)event, CU_EVENT_DISABLE_TIMING) : cudaErrorSharedObjectSymbolNotFound;
}

int pl_event_record(void *event, void *stream)
{
    pl_fn_cudaEventRecord rt = TF_REAL(cudaEventRecord);
    pl_fn_cuEventRecord drv = TF_REAL(cuEventRecord);
    if (rt)
        return rt((cudaEvent_t)event, (cudaStream_t)stream);
    return drv ? (int)drv((CUevent)event, (CUstream)stream) : cudaErrorSharedObjectSymbolNotFound;
}

int pl_event_query(void *event)
{
    pl_fn_cudaEventQuery rt = TF_REAL(cudaEventQuery);
    pl_fn_cuEventQuery drv = TF_REAL(cuEventQuery);
    if (rt)
        return rt((cudaEvent_t)event);
    return drv ? (int)drv((CUevent)event) : cudaErrorSharedObjectSymbolNotFound;
}

int pl_event_sync(void *event)
{
    pl_fn_cudaEventSynchronize rt = TF_REAL(cudaEventSynchronize);
    pl_fn_cuEventSynchronize drv = TF_REAL(cuEventSynchronize);
    if (rt)
        return rt((cudaEvent_t)event);
    return drv ? (int)drv((CUevent)event) : cudaErrorSharedObjectSymbolNotFound;
}

int pl_event_destroy(void *event)
{
    pl_fn_cudaEventDestroy rt = TF_REAL(cudaEventDestroy);
    pl_fn_cuEventDestroy_v2 drv = TF_REAL(cuEventDestroy_v2);
    if (rt)
        return rt((cudaEvent_t)event);
    return drv ? (int)drv((CUevent)event) : cudaErrorSharedObjectSymbolNotFound;
}

int pl_event_wait(void *stream, void *event)
{
    pl_fn_cudaStreamWaitEvent rt = TF_REAL(cudaStreamWaitEvent);
    pl_fn_cuStreamWaitEvent drv = TF_REAL(cuStreamWaitEvent);
    if (rt)
        return rt((cudaStream_t)stream, (cudaEvent_t)event, 0);
    return drv ? (int)drv((CUstream)stream, (CUevent)event, 0) : cudaErrorSharedObjectSymbolNotFound;
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
