/* cublasLtMatrixTransformDesc_t: create/init/destroy and attributes. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define T(id, field) SIMLT_ATTR(id, simlt_transform_desc, field)
static const simlt_attr tdesc_attrs[] = {
    T(CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, scale),
    T(CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, pointer_mode),
    T(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, transa),
    T(CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, transb),
};
#undef T

cublasStatus_t cublasLtMatrixTransformDescInit_internal(cublasLtMatrixTransformDesc_t transformDesc, size_t size,
                                                        cudaDataType scaleType)
{
    if (!transformDesc || size < sizeof(simlt_transform_desc))
        return CUBLAS_STATUS_ALLOC_FAILED;
    simlt_transform_desc *t = SIMLT_TDESC(transformDesc);
    memset(t, 0, sizeof *t);
    t->scale = scaleType;
    t->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    t->transa = t->transb = CUBLAS_OP_N;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *transformDesc, cudaDataType scaleType)
{
    if (!transformDesc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatrixTransformDesc_t t = malloc(sizeof *t);
    if (!t)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasLtMatrixTransformDescInit_internal(t, sizeof *t, scaleType);
    *transformDesc = t;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescDestroy(cublasLtMatrixTransformDesc_t transformDesc)
{
    free(transformDesc);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixTransformDescSetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, const void *buf,
                                                       size_t sizeInBytes)
{
    return simlt_attr_set(tdesc_attrs, sizeof tdesc_attrs / sizeof *tdesc_attrs, transformDesc, attr, buf,
                          sizeInBytes);
}

cublasStatus_t cublasLtMatrixTransformDescGetAttribute(cublasLtMatrixTransformDesc_t transformDesc,
                                                       cublasLtMatrixTransformDescAttributes_t attr, void *buf,
                                                       size_t sizeInBytes, size_t *sizeWritten)
{
    return simlt_attr_get(tdesc_attrs, sizeof tdesc_attrs / sizeof *tdesc_attrs, transformDesc, attr, buf,
                          sizeInBytes, sizeWritten);
}
