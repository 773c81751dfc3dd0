/* Driver version, the single device, and its primary context. The stand-in
 * does not insist on cuInit first: a missing cuInit is a test-program bug the
 * stand-in has no reason to punish. */
#include "async.h"
#include "export.h"

#include <stdio.h>
#include <string.h>

static struct CUctx_st primary = {0};
static int primary_refs;
static __thread CUcontext current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

CUcontext sim_primary_ctx(void) { return &primary; }

CUresult sim_device_query(const void *out, CUdevice dev)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuInit(unsigned int flags)
{
    if (flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *version)
{
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    *version = SIM_DRIVER_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    CUresult r = sim_device_query(dev, ordinal);
    if (r == CUDA_SUCCESS)
        *dev = 0;
    return r;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = sim_device_query(name, dev);
    if (r == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "simcuda");
    return r;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CUresult r = sim_device_query(bytes, dev);
    if (r == CUDA_SUCCESS)
        *bytes = SIM_DEVICE_MEM;
    return r;
}

/* A fixed identity: the same in every run, as a real board's is. */
static const CUuuid sim_uuid = {{'s', 'i', 'm', 'c', 'u', 'd', 'a', 0, 0x5e, 0x1d, 0x0a, 0xce, 0, 0, 0, 1}};

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    CUresult r = sim_device_query(uuid, dev);
    if (r == CUDA_SUCCESS)
        *uuid = sim_uuid;
    return r;
}

#undef cuDeviceGetUuid
SIM_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    CUresult r = sim_device_query(ctx, dev);
    if (r != CUDA_SUCCESS)
        return r;
    pthread_mutex_lock(&lock);
    primary_refs++;
    pthread_mutex_unlock(&lock);
    *ctx = &primary;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    bool ok = primary_refs > 0;
    if (ok)
        primary_refs--;
    pthread_mutex_unlock(&lock);
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    if (sim_queued())
        sim_wait_all(); /* queued work finishes before its context goes */
    sim_cls_context_gone(&primary); /* and what the runtime kept in it */
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = sim_device_query(active, dev);
    if (r != CUDA_SUCCESS)
        return r;
    pthread_mutex_lock(&lock);
    *active = primary_refs > 0;
    pthread_mutex_unlock(&lock);
    *flags = 0;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    if (!ctx)
        return CUDA_ERROR_INVALID_VALUE;
    *ctx = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
    if (ctx && ctx != &primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    current = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev)
{
    if (!dev)
        return CUDA_ERROR_INVALID_VALUE;
    *dev = 0;
    return CUDA_SUCCESS;
}

/* Without queues work runs at call time: nothing is left to wait for. */
CUresult cuCtxSynchronize(void)
{
    if (sim_capture_forbids())
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (sim_queued())
        sim_wait_all();
    return CUDA_SUCCESS;
}

/* The CUDA 7.0 forms, which the static runtime still asks for: the same
 * on a stand-in whose primary context is never current elsewhere. */
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
SIM_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
SIM_API CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

/* Every context of the stand-in is a primary context, made by the 3.2 API. */
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (!ctx)
        ctx = current;
    if (ctx != &primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020;
    return CUDA_SUCCESS;
}
