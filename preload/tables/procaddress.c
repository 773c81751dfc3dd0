/* The entry-point resolvers: cuGetProcAddress(_v2) and the runtime's
 * cudaGetDriverEntryPoint(ByVersion). The real resolver decides what the
 * caller gets (version, per-thread variant, status); we only swap in our
 * wrapper when what it returned is a function we hook. The CUDA runtime
 * and the libraries that link it statically fetch every driver function
 * this way, so this is what puts their launches in front of us. */
#include <stdio.h>

#include "tables/hooks.h"
#include "core/state.h"

/* Which of our driver hooks an API name means when the pointer itself is
 * not an exported symbol (a driver may hand out internal entry points):
 * the newest ABI (_v2; every hooked _v2 predates cuGetProcAddress itself),
 * and under the per-thread flag the _ptsz/_ptds variant. */
static int hook_for_symbol(const char *symbol, bool per_thread)
{
    static const char *const forms[] = { "%s_v2%s", "%s%s" };
    static const char *const pt[] = { "_ptsz", "_ptds" };
    char name[128];
    for (int f = 0; f < 2; f++)
        for (int s = 0; s < (per_thread ? 2 : 1); s++) {
            snprintf(name, sizeof name, forms[f], symbol, per_thread ? pt[s] : "");
            int id = pl_hook_by_name(name);
            if (id >= 0)
                return id;
        }
    return -1;
}

/* A pointer that is no exported symbol is only taken for our hook's name
 * when it is what the driver hands out for the ABI our hooks were written
 * against (CUDA_VERSION): a caller asking an older version may get an older
 * ABI under the same name (cuMemAlloc before _v2, cuStreamBeginCapture
 * without a mode), which our wrapper must not receive. */
static bool current_abi(const char *symbol, const void *fn, bool per_thread)
{
    pl_fn_cuGetProcAddress_v2 gpa = TF_REAL(cuGetProcAddress_v2);
    void *ref = NULL;
    cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
    return gpa && TF_PASS(gpa(symbol, &ref, CUDA_VERSION, flags, NULL)) == CUDA_SUCCESS && ref == fn;
}

/* Resolvers substitute at any depth: the pointer is kept and called later.
 * An exported function is matched by its own name, and left alone when we
 * do not hook that name (an older version of one we do, say); only an
 * internal pointer is matched by the symbol asked for. */
static void substitute(void **pfn, const char *symbol, bool per_thread)
{
    if (!pfn || !*pfn || !symbol || !pl_layer_on() || pl_hook_is_ours(*pfn))
        return;
    int id = pl_hook_by_real(*pfn);
    if (id == -2 && (id = hook_for_symbol(symbol, per_thread)) >= 0 &&
        (!pl_real_get(id) || !current_abi(symbol, *pfn, per_thread)))
        id = -1; /* no exported function for our wrapper to call, or another ABI */
    if (id >= 0)
        *pfn = pl_hook_wrapper(id);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    TF_REAL_OR(cuGetProcAddress_v2, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(symbol, pfn, version, flags, status));
    if (r == CUDA_SUCCESS)
        substitute(pfn, symbol, flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    return r;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int version, cuuint64_t flags)
{
    TF_REAL_OR(cuGetProcAddress, TF_MISSING_CUDA);
    CUresult r = TF_PASS(real(symbol, pfn, version, flags));
    if (r == CUDA_SUCCESS)
        substitute(pfn, symbol, flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM);
    return r;
}

/* The _ptsz resolvers treat cudaEnableDefault as per-thread. */
static bool runtime_per_thread(unsigned long long flags, bool ptsz_entry)
{
    return (flags & cudaEnablePerThreadDefaultStream) || (ptsz_entry && !(flags & cudaEnableLegacyStream));
}

#define ENTRY_POINT(NAME, PTSZ)                                                                   \
    cudaError_t NAME(const char *symbol, void **pfn, unsigned long long flags,                    \
                     enum cudaDriverEntryPointQueryResult *status)                                \
    {                                                                                             \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                      \
        cudaError_t r = TF_PASS(real(symbol, pfn, flags, status));                                \
        if (r == cudaSuccess)                                                                     \
            substitute(pfn, symbol, runtime_per_thread(flags, PTSZ));                             \
        return r;                                                                                 \
    }

#define ENTRY_POINT_BY_VERSION(NAME, PTSZ)                                                        \
    cudaError_t NAME(const char *symbol, void **pfn, unsigned int version, unsigned long long flags, \
                     enum cudaDriverEntryPointQueryResult *status)                                \
    {                                                                                             \
        TF_REAL_OR(NAME, TF_MISSING_CUDART);                                                      \
        cudaError_t r = TF_PASS(real(symbol, pfn, version, flags, status));                       \
        if (r == cudaSuccess)                                                                     \
            substitute(pfn, symbol, runtime_per_thread(flags, PTSZ));                             \
        return r;                                                                                 \
    }

ENTRY_POINT(cudaGetDriverEntryPoint, false)
ENTRY_POINT(cudaGetDriverEntryPoint_ptsz, true)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion, false)
ENTRY_POINT_BY_VERSION(cudaGetDriverEntryPointByVersion_ptsz, true)
