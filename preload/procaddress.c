/* The entry-point resolvers: cuGetProcAddress(_v2) and the runtime's
 * cudaGetDriverEntryPoint(ByVersion). The real resolver decides what the
 * caller gets (version, per-thread variant, status); we only swap in our
 * wrapper when what it returned is a function we hook. The CUDA runtime
 * and the libraries that link it statically fetch every driver function
 * this way, so this is what puts their launches in front of us. */
#include "hooks.h"
#include "state.h"

/* Resolvers substitute at any depth: the pointer is kept and called later. */
static void substitute(void **pfn)
{
    if (!pfn || !*pfn || !tf_layer_on())
        return;
    int id = tf_hook_by_real(*pfn);
    if (id >= 0)
        *pfn = tf_hook_wrapper(id);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    TF_REAL_OR(cuGetProcAddress_v2, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(symbol, pfn, version, flags, status));
    if (r == CUDA_SUCCESS)
        substitute(pfn);
    return r;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags)
{
    TF_REAL_OR(cuGetProcAddress, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(symbol, pfn, version, flags));
    if (r == CUDA_SUCCESS)
        substitute(pfn);
    return r;
}

#define ENTRY_POINT(NAME)                                                                         \
    cudaError_t NAME(const char *symbol, void **pfn, unsigned long long flags,                    \
                     enum cudaDriverEntryPointQueryResult *status)                                \
    {                                                                                             \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                      \
        cudaError_t r = TF_PASS(real(symbol, pfn, flags, status));                                \
        if (r == cudaSuccess)                                                                     \
            substitute(pfn);                                                                      \
        return r;                                                                                 \
    }

#define ENTRY_POINT_BY_VERSION(NAME)                                                              \
    cudaError_t NAME(const char *symbol, void **pfn, unsigned int version, unsigned long long flags, \
                     enum cudaDriverEntryPointQueryResult *status)                                \
    {                                                                                             \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                      \
        cudaError_t r = TF_PASS(real(symbol, pfn, version, flags, status));                       \
        if (r == cudaSuccess)                                                                     \
            substitute(pfn);                                                                      \
        return r;                                                                                 \
    }

ENTRY_POINT(cudaGetDriverEntryPoint)
ENTRY_POINT(cudaGetDriverEntryPoint_ptsz)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion_ptsz)
