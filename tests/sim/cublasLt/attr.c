/* Attribute get/set shared by every Lt descriptor. Like the real library,
 * values are stored without validation (cublasLtMatmul and the heuristic
 * judge them); only the buffer and its exact size are checked. */
#include <string.h>

#include "internal.h"

static const simlt_attr *find(const simlt_attr *tab, size_t n, int id)
{
    for (size_t i = 0; i < n; i++)
        if (tab[i].id == id)
            return &tab[i];
    return NULL;
}

cublasStatus_t simlt_attr_set(const simlt_attr *tab, size_t n, void *obj, int id, const void *buf, size_t size)
{
    const simlt_attr *a = find(tab, n, id);
    if (!obj || !a || !buf || size != a->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy((char *)obj + a->offset, buf, size);
    return CUBLAS_STATUS_SUCCESS;
}

/* sizeInBytes == 0 asks for the size only. */
cublasStatus_t simlt_attr_get(const simlt_attr *tab, size_t n, const void *obj, int id, void *buf, size_t size,
                              size_t *written)
{
    const simlt_attr *a = find(tab, n, id);
    if (!obj || !a)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size == 0) {
        if (!written)
            return CUBLAS_STATUS_INVALID_VALUE;
        *written = a->size;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || size != a->size)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, (const char *)obj + a->offset, size);
    if (written)
        *written = size;
    return CUBLAS_STATUS_SUCCESS;
}
