/* Events: forwards to the driver (cudaEvent_t is CUevent). */
#include "internal.h"

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    SIM_RT_DRIVER(d, false);
    if (!e)
        return sim_rt_return(cudaErrorInvalidValue);
    return sim_rt_result(DRV(d, cuEventCreate)(e, flags));
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }

SIM_API __typeof__(cudaEventRecord) cudaEventRecord_ptsz;
SIM_API __typeof__(cudaEventRecordWithFlags) cudaEventRecordWithFlags_ptsz;

static cudaError_t record(bool pt, cudaEvent_t e, cudaStream_t s, unsigned int flags)
{
    SIM_RT_DRIVER(d, pt);
    return sim_rt_result(DRV(d, cuEventRecordWithFlags)(e, s, flags));
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { return record(false, e, s, 0); }
cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s) { return record(true, e, s, 0); }
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned int f) { return record(false, e, s, f); }
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t e, cudaStream_t s, unsigned int f) { return record(true, e, s, f); }

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuEventSynchronize)(e));
}

cudaError_t cudaEventQuery(cudaEvent_t e)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuEventQuery)(e));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuEventElapsedTime)(ms, start, end));
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuEventDestroy)(e));
}
