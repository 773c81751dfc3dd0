/* cuGetProcAddress and cuGetProcAddress_v2: name -> entry point, from the
 * one table of driver functions (table.h). Looking up "cuGetProcAddress"
 * returns this very resolver, as the real driver does. Entry points the
 * headers declare and the stand-in does not implement (at the version
 * asked) resolve to a function that returns CUDA_ERROR_NOT_SUPPORTED
 * (unsupported.c), so that every lookup the static runtime makes at
 * start-up succeeds (it then asks for the driver's private interfaces,
 * export.c). */
#include "internal.h"
#include "unsupported.h"

#include <string.h>

/* cuda.h maps these names to their newest versions; the table also needs
 * the older exports under their own names. */
#undef cuGetProcAddress
#undef cuEventElapsedTime
#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
SIM_API CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);
SIM_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
SIM_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
SIM_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
SIM_API CUresult cuDevicePrimaryCtxReset(CUdevice dev);

struct sim_entry {
    const char *name, *symbol, *per_thread_symbol;
    void *fn, *per_thread_fn;
    int min_version;
};

static const struct sim_entry table[] = {
#define SIM_DRV(name, sym, psym, ver) {#name, #sym, #psym, (void *)sym, (void *)psym, ver},
#include "table.h"
#undef SIM_DRV
};

/* Also accepts an exported symbol's exact name ("cuMemAlloc_v2"), which
 * the real driver refuses; harmless for a stand-in. */
static bool matches(const struct sim_entry *e, const char *symbol)
{
    return strcmp(e->name, symbol) == 0 || strcmp(e->symbol, symbol) == 0 ||
           strcmp(e->per_thread_symbol, symbol) == 0;
}

/* The stand-in's own row of `symbol` for `version`: the highest
 * min_version not above it. *named: whether any row has that name. */
static const struct sim_entry *own_entry(const char *symbol, int version, bool *named)
{
    const struct sim_entry *best = NULL;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!matches(&table[i], symbol))
            continue;
        *named = true;
        if (table[i].min_version <= version && (!best || table[i].min_version > best->min_version))
            best = &table[i];
    }
    return best;
}

static CUresult resolve(const char *symbol, void **pfn, int version, cuuint64_t flags,
                        CUdriverProcAddressQueryResult *status)
{
    bool named = false;
    void *unsupported = NULL;
    if (!symbol || !pfn)
        return CUDA_ERROR_INVALID_VALUE;
    const struct sim_entry *own = own_entry(symbol, version, &named);
    named |= sim_header_entry(symbol, version, &unsupported);
    /* The stand-in's own function answers from its row's version up, even
     * where the headers name a newer signature (cuCtxSynchronize and
     * cuCtxGetDevice gained a context argument in 13.0; the old forms,
     * acting on the current context, are what the stand-in's runtime
     * calls, and ignore the extra argument). Below it, or for entry points
     * it lacks, the not-supported function answers. */
    *pfn = own ? ((flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? own->per_thread_fn : own->fn)
               : unsupported;
    if (!*pfn) {
        if (status)
            *status = named ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        return CUDA_ERROR_NOT_FOUND;
    }
    if (status)
        *status = CU_GET_PROC_ADDRESS_SUCCESS;
    return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    return resolve(symbol, pfn, cudaVersion, flags, symbolStatus);
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return resolve(symbol, pfn, cudaVersion, flags, NULL);
}
