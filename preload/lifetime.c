/* Calls that end what a deferred record's replay needs: its stream, its
 * context (and with it every handle and allocation made there). Records
 * that would replay through them run first, while they still exist; a
 * replay on a destroyed stream would fail after the program was told the
 * producer succeeded. (cuBLAS and cuBLASLt handles: cublas_other.c,
 * lt/handle.c.)
 *
 * A reset frees every allocation, so the destinations die too and dropping
 * would be enough; but the engine can only forget allocations one base at
 * a time, and a record left pending would later replay through dead
 * handles into addresses the next allocation may reuse. */
#include "calls/access_hook.h"
#include "calls/describe.h"

#define BEFORE_RESET(key) if (pl_watching()) pl_note_materialize_all(0, TF_WHY(key))

TF_BEFORE_HOOK(cudaError_t, TF_MISSING_CUDART, cudaStreamDestroy, (cudaStream_t s), (s),
               pl_note_materialize_stream(TF_STREAM(s), TF_WHY(stream_destroyed)))
TF_BEFORE_HOOK(CUresult, TF_MISSING_CUDA, cuStreamDestroy_v2, (CUstream s), (s),
               pl_note_materialize_stream(TF_STREAM(s), TF_WHY(stream_destroyed)))
TF_BEFORE_HOOK(cudaError_t, TF_MISSING_CUDART, cudaDeviceReset, (void), (), BEFORE_RESET(device_reset))
TF_BEFORE_HOOK(CUresult, TF_MISSING_CUDA, cuDevicePrimaryCtxReset_v2, (CUdevice dev), (dev),
               BEFORE_RESET(device_reset))
TF_BEFORE_HOOK(CUresult, TF_MISSING_CUDA, cuCtxDestroy_v2, (CUcontext ctx), (ctx), BEFORE_RESET(context_destroyed))
