/* Status names and messages, worded as the real cuBLAS 13.1 returns them;
 * the stand-in's libcublas answers cublasGetStatus* from these too. */
#include "internal.h"

typedef struct status_text {
    cublasStatus_t status;
    const char *name, *text;
} status_text;

static const status_text texts[] = {
    {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS", "success"},
    {CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED", "the library was not initialized"},
    {CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed"},
    {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE",
     "an unsupported value or parameter was passed to the function"},
    {CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH",
     "the function requires an architectural feature absent from the device"},
    {CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed"},
    {CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED", "the function failed to launch on the GPU"},
    {CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal operation failed"},
    {CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED", "the requested functionality is not supported"},
    {CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR", "the license check failed"},
};

static const status_text *find(cublasStatus_t status)
{
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        if (texts[i].status == status)
            return &texts[i];
    return NULL;
}

const char *cublasLtGetStatusName(cublasStatus_t status)
{
    const status_text *t = find(status);
    return t ? t->name : "unrecognized status";
}

const char *cublasLtGetStatusString(cublasStatus_t status)
{
    const status_text *t = find(status);
    return t ? t->text : "unrecognized status";
}
