/* Error codes: the driver's mapped onto the runtime's, the per-thread last
 * error, and the names and texts of the codes. */
#include "internal.h"

static __thread cudaError_t last_error = cudaSuccess;

cudaError_t sim_rt_error(CUresult r)
{
    switch (r) {
    case CUDA_SUCCESS: return cudaSuccess;
    case CUDA_ERROR_INVALID_VALUE: return cudaErrorInvalidValue;
    case CUDA_ERROR_OUT_OF_MEMORY: return cudaErrorMemoryAllocation;
    case CUDA_ERROR_NOT_INITIALIZED: return cudaErrorInitializationError;
    case CUDA_ERROR_INVALID_DEVICE: return cudaErrorInvalidDevice;
    case CUDA_ERROR_INVALID_CONTEXT: return cudaErrorDeviceUninitialized;
    case CUDA_ERROR_INVALID_HANDLE: return cudaErrorInvalidResourceHandle;
    case CUDA_ERROR_NOT_FOUND: return cudaErrorSymbolNotFound;
    case CUDA_ERROR_NOT_READY: return cudaErrorNotReady;
    case CUDA_ERROR_ILLEGAL_STATE: return cudaErrorIllegalState;
    case CUDA_ERROR_NOT_SUPPORTED: return cudaErrorNotSupported;
    case CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: return cudaErrorStreamCaptureUnsupported;
    case CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: return cudaErrorStreamCaptureInvalidated;
    case CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: return cudaErrorStreamCaptureImplicit;
    case CUDA_ERROR_NO_BINARY_FOR_GPU: return cudaErrorNoKernelImageForDevice;
    case CUDA_ERROR_LAUNCH_FAILED: return cudaErrorLaunchFailure;
    default: return cudaErrorUnknown;
    }
}

/* "Not ready" (a query of unfinished work) is an answer, not an error. */
cudaError_t sim_rt_return(cudaError_t e)
{
    if (e != cudaSuccess && e != cudaErrorNotReady)
        last_error = e;
    return e;
}

cudaError_t sim_rt_result(CUresult r) { return sim_rt_return(sim_rt_error(r)); }

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void) { return last_error; }

#define SIM_RT_ERRORS(X)                                                                  \
    X(cudaSuccess, "no error")                                                             \
    X(cudaErrorInvalidValue, "invalid argument")                                           \
    X(cudaErrorMemoryAllocation, "out of memory")                                          \
    X(cudaErrorInitializationError, "initialization error")                                \
    X(cudaErrorInvalidConfiguration, "invalid configuration argument")                     \
    X(cudaErrorInvalidPitchValue, "invalid pitch argument")                                \
    X(cudaErrorInvalidSymbol, "invalid device symbol")                                     \
    X(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")                \
    X(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version") \
    X(cudaErrorNoDevice, "no CUDA-capable device is detected")                             \
    X(cudaErrorInvalidDevice, "invalid device ordinal")                                    \
    X(cudaErrorDeviceUninitialized, "invalid device context")                              \
    X(cudaErrorInvalidDeviceFunction, "invalid device function")                           \
    X(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device") \
    X(cudaErrorInvalidResourceHandle, "invalid resource handle")                           \
    X(cudaErrorIllegalState, "the operation cannot be performed in the present state")    \
    X(cudaErrorSymbolNotFound, "named symbol not found")                                   \
    X(cudaErrorNotReady, "device not ready")                                               \
    X(cudaErrorIllegalAddress, "an illegal memory access was encountered")                 \
    X(cudaErrorLaunchOutOfResources, "too many resources requested for launch")            \
    X(cudaErrorLaunchFailure, "unspecified launch failure")                                \
    X(cudaErrorNotSupported, "operation not supported")                                    \
    X(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing") \
    X(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture") \
    X(cudaErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream") \
    X(cudaErrorUnknown, "unknown error")

const char *cudaGetErrorName(cudaError_t e)
{
#define SIM_NAME(code, text) case code: return #code;
    switch (e) { SIM_RT_ERRORS(SIM_NAME) default: return "cudaErrorUnknown"; }
#undef SIM_NAME
}

const char *cudaGetErrorString(cudaError_t e)
{
#define SIM_TEXT(code, text) case code: return text;
    switch (e) { SIM_RT_ERRORS(SIM_TEXT) default: return "unrecognized error code"; }
#undef SIM_TEXT
}
