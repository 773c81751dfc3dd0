/* cudaGetDriverEntryPoint[ByVersion][_ptsz]: forwards to the driver's
 * resolver. Per the runtime's contract, a symbol that is not found is
 * cudaSuccess with a NULL pointer and the reason in driverStatus. */
#include "internal.h"

static cudaError_t entry_point(const char *symbol, void **fn, int version, unsigned long long flags,
                               bool per_thread_default, enum cudaDriverEntryPointQueryResult *status)
{
    if (!symbol || !fn || (flags & ~(unsigned long long)(cudaEnableLegacyStream | cudaEnablePerThreadDefaultStream)))
        return sim_rt_return(cudaErrorInvalidValue);
    /* cudaEnableDefault means whatever the caller was compiled for. */
    cuuint64_t f = flags != cudaEnableDefault ? flags
                 : per_thread_default ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                                      : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *fn = NULL;
    CUresult r = sim_rt_proc_address(symbol, fn, version, f, &st);
    if (r == CUDA_ERROR_NOT_INITIALIZED)
        return sim_rt_return(sim_rt_init_error());
    if (r != CUDA_SUCCESS)
        *fn = NULL;
    if (status)
        *status = st == CU_GET_PROC_ADDRESS_SUCCESS ? cudaDriverEntryPointSuccess
                : st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
                                                                   : cudaDriverEntryPointSymbolNotFound;
    return cudaSuccess;
}

/* Spelled out: __typeof__ of the deprecated original would warn. */
SIM_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn, unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *status);
SIM_API __typeof__(cudaGetDriverEntryPointByVersion) cudaGetDriverEntryPointByVersion_ptsz;

cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                    enum cudaDriverEntryPointQueryResult *status)
{
    return entry_point(symbol, fn, SIM_RUNTIME_VERSION, flags, false, status);
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn, unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *status)
{
    return entry_point(symbol, fn, SIM_RUNTIME_VERSION, flags, true, status);
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                             unsigned long long flags, enum cudaDriverEntryPointQueryResult *status)
{
    return entry_point(symbol, fn, (int)version, flags, false, status);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **fn, unsigned int version,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *status)
{
    return entry_point(symbol, fn, (int)version, flags, true, status);
}
