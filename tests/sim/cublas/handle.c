/* Handle life cycle, version and status queries. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "handle.h"
#include "handle_magic.h"


static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cublasContext *free_list;

bool simcublas_handle_ok(cublasHandle_t h)
{
    return h && h->magic == SIMCUBLAS_HANDLE_MAGIC;
}

static cublasHandle_t take_handle(void)
{
    pthread_mutex_lock(&pool_lock);
    cublasHandle_t h = free_list;
    if (h)
        free_list = h->next_free;
    pthread_mutex_unlock(&pool_lock);
    return h ? h : malloc(sizeof *h);
}

static void park_handle(cublasHandle_t h)
{
    pthread_mutex_lock(&pool_lock);
    h->magic = 0;
    h->next_free = free_list;
    free_list = h;
    pthread_mutex_unlock(&pool_lock);
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasHandle_t h = take_handle();
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    memset(h, 0, sizeof *h);
    if (cublasLtCreate(&h->lt) != CUBLAS_STATUS_SUCCESS) {
        park_handle(h);
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
    h->math_mode = CUBLAS_DEFAULT_MATH;
    h->atomics = CUBLAS_ATOMICS_NOT_ALLOWED;
    h->emulation = CUBLAS_EMULATION_STRATEGY_DEFAULT;
    h->emu_special = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
    h->emu_mantissa = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
    h->emu_max_bits = h->emu_bit_offset = 0;
    h->emu_bit_count = NULL;
    h->magic = SIMCUBLAS_HANDLE_MAGIC;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    if (!simcublas_handle_ok(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    cublasLtDestroy(handle->lt);
    park_handle(handle);
    return CUBLAS_STATUS_SUCCESS;
}

/* Like the real library, answers without looking at the handle. */
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
    (void)handle;
    if (!version)
        return CUBLAS_STATUS_INVALID_VALUE;
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value)
{
    return cublasLtGetProperty(type, value);
}

size_t cublasGetCudartVersion(void)
{
    return cublasLtGetCudartVersion();
}

const char *cublasGetStatusName(cublasStatus_t status)
{
    return cublasLtGetStatusName(status);
}

const char *cublasGetStatusString(cublasStatus_t status)
{
    return cublasLtGetStatusString(status);
}
