/* cublasLtMatmulDesc_t: create/init/destroy and every attribute of the
 * cuBLAS 13 header, stored as given (defaults as the real library reports
 * them: scale type as created, bias and aux data types -1). */
#include <stdlib.h>

#include "internal.h"

#define D(id, field) SIMLT_ATTR(id, simlt_matmul_desc, field)
static const simlt_attr desc_attrs[] = {
    D(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, compute),
    D(CUBLASLT_MATMUL_DESC_SCALE_TYPE, scale),
    D(CUBLASLT_MATMUL_DESC_POINTER_MODE, pointer_mode),
    D(CUBLASLT_MATMUL_DESC_TRANSA, transa),
    D(CUBLASLT_MATMUL_DESC_TRANSB, transb),
    D(CUBLASLT_MATMUL_DESC_TRANSC, transc),
    D(CUBLASLT_MATMUL_DESC_FILL_MODE, fill),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue),
    D(CUBLASLT_MATMUL_DESC_BIAS_POINTER, bias),
    D(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, bias_bs),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, aux),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, aux_ld),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, aux_bs),
    D(CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, alpha_vec_bs),
    D(CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, sm_count),
    D(CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, a_scale),
    D(CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, b_scale),
    D(CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, c_scale),
    D(CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, d_scale),
    D(CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, amax_d),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, aux_type),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER, aux_scale),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER, aux_amax),
    D(CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast_accum),
    D(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, bias_type),
    D(CUBLASLT_MATMUL_DESC_A_SCALE_MODE, a_scale_mode),
    D(CUBLASLT_MATMUL_DESC_B_SCALE_MODE, b_scale_mode),
    D(CUBLASLT_MATMUL_DESC_C_SCALE_MODE, c_scale_mode),
    D(CUBLASLT_MATMUL_DESC_D_SCALE_MODE, d_scale_mode),
    D(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE, aux_scale_mode),
    D(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, d_out_scale),
    D(CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE, d_out_scale_mode),
    D(CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, emulation),
};
#undef D

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                               cublasComputeType_t computeType, cudaDataType_t scaleType)
{
    simlt_matmul_desc *d = simlt_init_storage(matmulDesc, size, sizeof *d);
    if (!d)
        return CUBLAS_STATUS_ALLOC_FAILED;
    d->compute = computeType;
    d->scale = scaleType;
    d->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
    d->transa = d->transb = d->transc = CUBLAS_OP_N;
    d->fill = CUBLAS_FILL_MODE_FULL;
    d->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    d->aux_type = -1;
    d->bias_type = -1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType)
{
    if (!matmulDesc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulDesc_t d = malloc(sizeof *d);
    if (!d)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasLtMatmulDescInit_internal(d, sizeof *d, computeType, scaleType);
    *matmulDesc = d;
    return CUBLAS_STATUS_SUCCESS;
}

SIMLT_DESCRIPTOR_FNS(cublasLtMatmulDesc, cublasLtMatmulDescAttributes_t, desc_attrs)
