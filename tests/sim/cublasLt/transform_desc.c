/* cublasLtMatrixTransformDesc_t: create/init/destroy and attributes. */
#include <stdlib.h>

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
    simlt_transform_desc *t = simlt_init_storage(transformDesc, size, sizeof *t);
    if (!t)
        return CUBLAS_STATUS_ALLOC_FAILED;
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

SIMLT_DESCRIPTOR_FNS(cublasLtMatrixTransformDesc, cublasLtMatrixTransformDescAttributes_t, tdesc_attrs)
