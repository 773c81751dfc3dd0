/* cuGetErrorName / cuGetErrorString for the codes the stand-in can return
 * and the common ones programs print. Unknown codes: INVALID_VALUE, as the
 * real driver does. */
#include "internal.h"

#define SIM_ERRORS(X)                                                                   \
    X(CUDA_SUCCESS, "no error")                                                          \
    X(CUDA_ERROR_INVALID_VALUE, "invalid argument")                                      \
    X(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")                                         \
    X(CUDA_ERROR_NOT_INITIALIZED, "initialization error")                                \
    X(CUDA_ERROR_DEINITIALIZED, "driver shutting down")                                  \
    X(CUDA_ERROR_NOT_SUPPORTED, "operation not supported")                               \
    X(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")                        \
    X(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")                               \
    X(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid")                        \
    X(CUDA_ERROR_INVALID_CONTEXT, "invalid device context")                              \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for execution on the device") \
    X(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid")                       \
    X(CUDA_ERROR_FILE_NOT_FOUND, "file not found")                                       \
    X(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")                              \
    X(CUDA_ERROR_ILLEGAL_STATE, "the operation cannot be performed in the present state") \
    X(CUDA_ERROR_NOT_FOUND, "named symbol not found")                                    \
    X(CUDA_ERROR_NOT_READY, "device not ready")                                          \
    X(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")            \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch")     \
    X(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")                            \
    X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "operation not permitted when stream is capturing") \
    X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "operation failed due to a previous error during capture") \
    X(CUDA_ERROR_UNKNOWN, "unknown error")

CUresult cuGetErrorName(CUresult error, const char **str)
{
    if (!str)
        return CUDA_ERROR_INVALID_VALUE;
#define SIM_NAME(code, text) case code: *str = #code; return CUDA_SUCCESS;
    switch (error) { SIM_ERRORS(SIM_NAME) default: break; }
#undef SIM_NAME
    *str = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **str)
{
    if (!str)
        return CUDA_ERROR_INVALID_VALUE;
#define SIM_TEXT(code, text) case code: *str = text; return CUDA_SUCCESS;
    switch (error) { SIM_ERRORS(SIM_TEXT) default: break; }
#undef SIM_TEXT
    *str = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}
