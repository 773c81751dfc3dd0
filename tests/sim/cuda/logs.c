/* The driver's error log callbacks (CUDA 12.9): NVIDIA's runtime, and so
 * PyTorch, registers one at start-up. The stand-in has no driver log: a
 * callback is accepted and never called; unregistering takes back a handle
 * it gave. */
#include "internal.h"

struct CUlogsCallbackEntry_st { uint32_t magic; CUlogsCallback fn; void *data; };
enum { SIM_MAGIC_LOGS = 0x4c4f4753 };

CUresult cuLogsRegisterCallback(CUlogsCallback fn, void *data, CUlogsCallbackHandle *out)
{
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUlogsCallbackEntry_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *e = (struct CUlogsCallbackEntry_st){SIM_MAGIC_LOGS, fn, data};
    if (out)
        *out = e;
    return CUDA_SUCCESS;
}

CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle h)
{
    if (!h || h->magic != SIM_MAGIC_LOGS)
        return CUDA_ERROR_INVALID_VALUE;
    h->magic = 0; /* kept: a second unregister is refused, not a double free */
    return CUDA_SUCCESS;
}
