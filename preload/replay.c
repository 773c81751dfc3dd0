/* Ordering and device selection for replays of deferred producers. */
#include "replay.h"
#include "describe.h"
#include "hooks.h"

int tf_order_after(uint64_t recorded, uint64_t trigger)
{
    if (recorded == trigger)
        return 0;
    tf_fn_cudaEventCreateWithFlags create = TF_REAL(cudaEventCreateWithFlags);
    tf_fn_cudaEventRecord record = TF_REAL(cudaEventRecord);
    tf_fn_cudaStreamWaitEvent wait = TF_REAL(cudaStreamWaitEvent);
    tf_fn_cudaEventDestroy destroy = TF_REAL(cudaEventDestroy);
    if (!create || !record || !wait || !destroy)
        return cudaErrorSharedObjectSymbolNotFound;
    cudaEvent_t ev;
    cudaError_t r = create(&ev, cudaEventDisableTiming);
    if (r != cudaSuccess)
        return r;
    r = record(ev, (cudaStream_t)(uintptr_t)recorded);
    if (r == cudaSuccess)
        r = wait((cudaStream_t)(uintptr_t)trigger, ev, 0);
    destroy(ev); /* legal while pending: released once it completes */
    return r;
}

int tf_device_enter(int device)
{
    int now = tf_current_device();
    tf_fn_cudaSetDevice set = TF_REAL(cudaSetDevice);
    if (device < 0 || now == device || !set || set(device) != cudaSuccess)
        return -1;
    return now;
}

void tf_device_leave(int previous)
{
    tf_fn_cudaSetDevice set = TF_REAL(cudaSetDevice);
    if (previous >= 0 && set)
        set(previous);
}

void *tf_context_current(void)
{
    CUcontext ctx = NULL;
    tf_fn_cuCtxGetCurrent get = TF_REAL(cuCtxGetCurrent);
    if (get)
        get(&ctx);
    return ctx;
}

void *tf_context_enter(void *ctx)
{
    void *now = tf_context_current();
    tf_fn_cuCtxSetCurrent set = TF_REAL(cuCtxSetCurrent);
    if (!ctx || ctx == now || !set || set(ctx) != CUDA_SUCCESS)
        return NULL;
    return now ? now : ctx; /* restoring "no context" is not possible; keep ctx */
}

void tf_context_leave(void *previous)
{
    tf_fn_cuCtxSetCurrent set = TF_REAL(cuCtxSetCurrent);
    if (previous && set)
        set(previous);
}
