/* cuGetProcAddress and cuGetProcAddress_v2: name -> entry point, from the
 * one table of driver functions (table.h). Looking up "cuGetProcAddress"
 * returns this very resolver, as the real driver does. */
#include "internal.h"

#include <string.h>

/* cuda.h maps these names to their newest versions; the table also needs
 * the older exports under their own names. */
#undef cuGetProcAddress
#undef cuEventElapsedTime
SIM_API CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags);
SIM_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);

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

static CUresult resolve(const char *symbol, void **pfn, int version, cuuint64_t flags,
                        CUdriverProcAddressQueryResult *status)
{
    const struct sim_entry *best = NULL;
    bool named = false;
    if (!symbol || !pfn)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (!matches(&table[i], symbol))
            continue;
        named = true;
        if (table[i].min_version <= version && (!best || table[i].min_version > best->min_version))
            best = &table[i];
    }
    *pfn = NULL;
    if (!best) {
        if (status)
            *status = named ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        return CUDA_ERROR_NOT_FOUND;
    }
    *pfn = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? best->per_thread_fn : best->fn;
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
