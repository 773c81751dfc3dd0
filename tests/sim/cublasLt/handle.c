/* cuBLASLt library handle, version and status queries. */
#include <stdlib.h>

#include "internal.h"

cublasStatus_t simlt_check_handle(cublasLtHandle_t h)
{
    return h && (h->magic == SIMLT_HANDLE_MAGIC || h->magic == SIMCUBLAS_HANDLE_MAGIC) ? CUBLAS_STATUS_SUCCESS
                                                                                   : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle)
{
    if (!lightHandle)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = SIMLT_HANDLE_MAGIC;
    *lightHandle = h;
    return CUBLAS_STATUS_SUCCESS;
}

/* Only a handle cublasLtCreate made: a cuBLAS handle is cublasDestroy's. */
cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle)
{
    if (!lightHandle || lightHandle->magic != SIMLT_HANDLE_MAGIC)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    lightHandle->magic = 0;
    free(lightHandle);
    return CUBLAS_STATUS_SUCCESS;
}

size_t cublasLtGetVersion(void)
{
    return CUBLAS_VERSION;
}

/* The CUDA runtime the real 13.x library was built against. */
size_t cublasLtGetCudartVersion(void)
{
    return 13000;
}

cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CUBLAS_STATUS_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
    }
    return CUBLAS_STATUS_SUCCESS;
}
