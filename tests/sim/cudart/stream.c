/* Streams and stream capture: thin forwards to the driver (cudaStream_t and
 * CUstream are the same type; cudaStreamLegacy/PerThread the same values). */
#include "internal.h"

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags, int priority)
{
    SIM_RT_DRIVER(d, false);
    if (!s)
        return sim_rt_return(cudaErrorInvalidValue);
    return sim_rt_result(DRV(d, cuStreamCreateWithPriority)(s, flags, priority));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) { return cudaStreamCreateWithPriority(s, flags, 0); }
cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithPriority(s, cudaStreamDefault, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuStreamDestroy)(s));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuCtxGetStreamPriorityRange)(least, greatest));
}

/* One legacy and one _ptsz entry point for each stream API below. */
#define SIM_RT_STREAM_API(ret_name, params, call)                         \
    SIM_API __typeof__(ret_name) ret_name##_ptsz;                                 \
    cudaError_t ret_name params                                           \
    {                                                                     \
        SIM_RT_DRIVER(d, false);                                          \
        return sim_rt_result(call);                                       \
    }                                                                     \
    cudaError_t ret_name##_ptsz params                                    \
    {                                                                     \
        SIM_RT_DRIVER(d, true);                                           \
        return sim_rt_result(call);                                       \
    }

SIM_RT_STREAM_API(cudaStreamSynchronize, (cudaStream_t s), DRV(d, cuStreamSynchronize)(s))
SIM_RT_STREAM_API(cudaStreamQuery, (cudaStream_t s), DRV(d, cuStreamQuery)(s))
SIM_RT_STREAM_API(cudaStreamWaitEvent, (cudaStream_t s, cudaEvent_t e, unsigned int f), DRV(d, cuStreamWaitEvent)(s, e, f))
SIM_RT_STREAM_API(cudaStreamGetPriority, (cudaStream_t s, int *p), DRV(d, cuStreamGetPriority)(s, p))
SIM_RT_STREAM_API(cudaStreamGetFlags, (cudaStream_t s, unsigned int *f), DRV(d, cuStreamGetFlags)(s, f))
/* The capture enums have the driver's values. */
SIM_RT_STREAM_API(cudaStreamBeginCapture, (cudaStream_t s, enum cudaStreamCaptureMode m),
                  DRV(d, cuStreamBeginCapture)(s, (CUstreamCaptureMode)m))
SIM_RT_STREAM_API(cudaStreamEndCapture, (cudaStream_t s, cudaGraph_t *g), DRV(d, cuStreamEndCapture)(s, g))
SIM_RT_STREAM_API(cudaStreamIsCapturing, (cudaStream_t s, enum cudaStreamCaptureStatus *st),
                  DRV(d, cuStreamIsCapturing)(s, (CUstreamCaptureStatus *)st))
SIM_RT_STREAM_API(cudaStreamGetCaptureInfo,
                  (cudaStream_t s, enum cudaStreamCaptureStatus *st, unsigned long long *id, cudaGraph_t *g,
                   const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges, size_t *n),
                  DRV(d, cuStreamGetCaptureInfo)(s, (CUstreamCaptureStatus *)st, (cuuint64_t *)id, g, deps,
                                                 (const CUgraphEdgeData **)edges, n))
SIM_RT_STREAM_API(cudaStreamUpdateCaptureDependencies,
                  (cudaStream_t s, cudaGraphNode_t *deps, const cudaGraphEdgeData *edges, size_t n, unsigned int f),
                  DRV(d, cuStreamUpdateCaptureDependencies)(s, deps, (const CUgraphEdgeData *)edges, n, f))

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuThreadExchangeStreamCaptureMode)((CUstreamCaptureMode *)mode));
}
