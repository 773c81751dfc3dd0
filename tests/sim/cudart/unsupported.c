/* Every runtime function of the public headers that the stand-in does not
 * implement exists and answers cudaErrorNotSupported (also kept as the last
 * error, as the runtime does for a failed call), never a wrong value: the
 * generated cudart_unsupported.h lists them (gen-unsupported.py), each is a
 * weak alias here, and the stand-in's own definitions override them at link
 * time. One function serves every signature: each returns cudaError_t, and
 * arguments are the caller's to clean up. */
#include "internal.h"

#include <cuda_profiler_api.h>

static cudaError_t not_supported(void) { return sim_rt_return(cudaErrorNotSupported); }

/* The aliases take each declaration's type (deprecated ones included);
 * the target's differs on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wattribute-alias"
#define SIM_UNSUPPORTED(name, base) __typeof__(base) name __attribute__((weak, alias("not_supported")));
#define SIM_UNSUPPORTED_UNTYPED(name) cudaError_t name(void) __attribute__((weak, alias("not_supported")));
#include "cudart_unsupported.h"
