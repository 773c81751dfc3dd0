/* Every driver entry point of the CUDA headers that the stand-in does not
 * implement (the generated driver_pfn.h, from the PFN typedefs) resolves
 * through cuGetProcAddress to a function that returns
 * CUDA_ERROR_NOT_SUPPORTED, what the real driver answers for an operation
 * a device cannot do. The static runtime looks up every entry point at
 * start-up and refuses to start when one is missing, so a lookup must
 * succeed even for work the stand-in cannot do; the call then fails
 * cleanly instead of crashing. Every driver entry point returns CUresult,
 * and arguments are the caller's to clean up, so one shape of function
 * serves every signature. SIMCUDA_UNSUPPORTED=1 names each one called on
 * stderr (once), for finding what a program needs. */
#include "internal.h"
#include "unsupported.h"

#include <stdio.h>
#include <string.h>

static CUresult unsupported(const char *name, bool *said)
{
    const char *env = getenv("SIMCUDA_UNSUPPORTED");
    if (env && strcmp(env, "1") == 0 && !__atomic_exchange_n(said, true, __ATOMIC_RELAXED))
        fprintf(stderr, "simcuda: %s is not supported by the stand-in\n", name);
    return CUDA_ERROR_NOT_SUPPORTED;
}

#define SIM_PFN(name, ver)
#define SIM_PFN_NAME(name)                                  \
    static CUresult unsupported_##name(void)                \
    {                                                       \
        static bool said;                                   \
        return unsupported(#name, &said);                   \
    }
#include "driver_pfn.h"
#undef SIM_PFN_NAME
#undef SIM_PFN

struct header_entry { const char *name; int version; void *fn; };

static const struct header_entry header_table[] = {
#define SIM_PFN_NAME(name)
#define SIM_PFN(name, ver) {#name, ver, (void *)unsupported_##name},
#include "driver_pfn.h"
#undef SIM_PFN
#undef SIM_PFN_NAME
};

bool sim_header_entry(const char *name, int version, void **fn)
{
    bool named = false;
    *fn = NULL;
    for (size_t i = 0; i < sizeof header_table / sizeof header_table[0]; i++) {
        const struct header_entry *e = &header_table[i];
        if (strcmp(e->name, name) != 0)
            continue;
        named = true;
        if (e->version <= version)
            *fn = e->fn; /* one function per name, whichever version */
    }
    return named;
}
