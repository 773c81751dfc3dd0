/* The mixed-type GEMMs. Like the real cuBLAS 13, cublasGemmEx and
 * cublasGemmStridedBatchedEx (and their _64 forms) do their work through
 * cublasLtMatmul, called through the dynamic symbol with the handle's
 * cached Lt handle, so an interposer of cublasLtMatmul sees those calls and
 * the trace shows one line under the classic name (cublasGemmEx, ...).
 * cublasSgemmEx and the pointer-array cublasGemmBatchedEx run the reference
 * GEMM directly and trace under their own names. */
#include "args.h"

/* The algo enum's documented values: DEFAULT..ALGO23, the TENSOR_OP ones
 * and AUTOTUNE. They all mean the same thing here. */
static bool algo_ok(cublasGemmAlgo_t algo)
{
    return (algo >= CUBLAS_GEMM_DEFAULT && algo <= CUBLAS_GEMM_ALGO23) ||
           (algo >= CUBLAS_GEMM_DEFAULT_TENSOR_OP && algo <= CUBLAS_GEMM_ALGO15_TENSOR_OP) ||
           algo == CUBLAS_GEMM_AUTOTUNE;
}

/* Fills r->scale from the compute type; INVALID_VALUE for a value that is no
 * cublasComputeType_t, NOT_SUPPORTED for a combination not in the table. */
static cublasStatus_t ex_types(simcublas_gemm *r, cublasComputeType_t compute, cublasGemmAlgo_t algo)
{
    int scale = simcublasLt_scale_for(compute, r->ct);
    if (scale < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!algo_ok(algo) || r->at != r->bt || !simcublasLt_types_ok(compute, (cudaDataType)scale, r->at, r->ct))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    r->scale = (cudaDataType)scale;
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t lt_layout(cublasLtMatrixLayout_t *l, cudaDataType type, cublasOperation_t op, int64_t rows,
                                int64_t cols, int64_t ld, int64_t batch, int64_t stride)
{
    bool trans = op != CUBLAS_OP_N;
    cublasStatus_t st = cublasLtMatrixLayoutCreate(l, type, (uint64_t)(trans ? cols : rows),
                                                   (uint64_t)(trans ? rows : cols), ld);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int32_t count = (int32_t)batch;
    cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count);
    cublasLtMatrixLayoutSetAttribute(*l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t lt_desc(cublasLtMatmulDesc_t *d, cublasHandle_t h, const simcublas_gemm *r,
                              cublasComputeType_t compute)
{
    if (compute == CUBLAS_COMPUTE_32F && simcublas_tf32(h)) /* what TF32 math mode means to GemmEx */
        compute = CUBLAS_COMPUTE_32F_FAST_TF32;
    cublasStatus_t st = cublasLtMatmulDescCreate(d, compute, r->scale);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int32_t ta = r->ta, tb = r->tb;
    int32_t pm = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? CUBLASLT_POINTER_MODE_DEVICE
                                                                : CUBLASLT_POINTER_MODE_HOST;
    cublasLtMatmulDescSetAttribute(*d, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    cublasLtMatmulDescSetAttribute(*d, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    cublasLtMatmulDescSetAttribute(*d, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, sizeof pm);
    return CUBLAS_STATUS_SUCCESS;
}

/* One cublasLtMatmul with D = C; descriptors live for the call only. */
static cublasStatus_t run_via_lt(cublasHandle_t h, const simcublas_gemm *r, cublasComputeType_t compute)
{
    if (r->batch > INT32_MAX)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    cublasLtMatmulDesc_t d = NULL;
    cublasLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
    cublasStatus_t st = lt_desc(&d, h, r, compute);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = lt_layout(&la, r->at, r->ta, r->m, r->k, r->lda, r->batch, r->sa);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = lt_layout(&lb, r->bt, r->tb, r->k, r->n, r->ldb, r->batch, r->sb);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = lt_layout(&lc, r->ct, CUBLAS_OP_N, r->m, r->n, r->ldc, r->batch, r->sc);
    if (st == CUBLAS_STATUS_SUCCESS) {
        simcublasLt_trace_as(r->name);
        st = cublasLtMatmul(h->lt, d, r->alpha, r->a, la, r->b, lb, r->beta, r->c, lc, r->c, lc, NULL, h->workspace,
                            h->workspace_size, h->stream);
        simcublasLt_trace_as(NULL);
    }
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatmulDescDestroy(d);
    return st;
}

static cublasStatus_t gemm_ex(cublasHandle_t h, simcublas_gemm *r, cublasComputeType_t compute,
                              cublasGemmAlgo_t algo)
{
    cublasStatus_t st = simcublas_gemm_check(h, r);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = ex_types(r, compute, algo);
    if (st != CUBLAS_STATUS_SUCCESS || r->m == 0 || r->n == 0 || r->batch == 0)
        return st;
    return run_via_lt(h, r, compute);
}

#define EX_REQ                                                                                                 \
    .ta = transa, .tb = transb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, .at = Atype,        \
    .bt = Btype, .ct = Ctype, .alpha = alpha, .beta = beta

#define GEMM_EX_FN(SYM, NAME, IT)                                                                                     \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const void *alpha, const void *A, cudaDataType Atype, IT lda, const void *B,       \
                       cudaDataType Btype, IT ldb, const void *beta, void *C, cudaDataType Ctype, IT ldc,       \
                       cublasComputeType_t computeType, cublasGemmAlgo_t algo)                                  \
    {                                                                                                           \
        simcublas_gemm r = {EX_REQ, .name = NAME, .batch = 1, .a = A, .b = B, .c = C};                          \
        return gemm_ex(handle, &r, computeType, algo);                                                          \
    }

#define GEMM_STRIDED_EX_FN(SYM, NAME, IT)                                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,    \
                       IT k, const void *alpha, const void *A, cudaDataType Atype, IT lda, long long int strideA, \
                       const void *B, cudaDataType Btype, IT ldb, long long int strideB, const void *beta,       \
                       void *C, cudaDataType Ctype, IT ldc, long long int strideC, IT batchCount,                \
                       cublasComputeType_t computeType, cublasGemmAlgo_t algo)                                   \
    {                                                                                                            \
        simcublas_gemm r = {EX_REQ, .name = NAME, .batch = batchCount, .a = A, .b = B, .c = C, .sa = strideA,   \
                            .sb = strideB, .sc = strideC};                                                       \
        return gemm_ex(handle, &r, computeType, algo);                                                           \
    }

GEMM_EX_FN(cublasGemmEx, "cublasGemmEx", int)
GEMM_EX_FN(cublasGemmEx_64, "cublasGemmEx_64", int64_t)
GEMM_STRIDED_EX_FN(cublasGemmStridedBatchedEx, "cublasGemmStridedBatchedEx", int)
GEMM_STRIDED_EX_FN(cublasGemmStridedBatchedEx_64, "cublasGemmStridedBatchedEx_64", int64_t)

/* Pointer arrays have no Lt equivalent in the stand-in: direct path. */
static cublasStatus_t gemm_batched_ex(cublasHandle_t h, simcublas_gemm *r, cublasComputeType_t compute,
                                      cublasGemmAlgo_t algo)
{
    cublasStatus_t st = simcublas_gemm_check(h, r);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = ex_types(r, compute, algo);
    return st == CUBLAS_STATUS_SUCCESS ? simcublas_gemm_run(h, r) : st;
}

#define GEMM_BATCHED_EX_FN(SYM, NAME, IT)                                                                        \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,    \
                       IT k, const void *alpha, const void *const Aarray[], cudaDataType Atype, IT lda,          \
                       const void *const Barray[], cudaDataType Btype, IT ldb, const void *beta,                 \
                       void *const Carray[], cudaDataType Ctype, IT ldc, IT batchCount,                          \
                       cublasComputeType_t computeType, cublasGemmAlgo_t algo)                                   \
    {                                                                                                            \
        simcublas_gemm r = {EX_REQ, .name = NAME, .batch = batchCount, .a = Aarray, .b = Barray,                 \
                            .c = (void *)Carray, .arrays = true};                                                \
        return gemm_batched_ex(handle, &r, computeType, algo);                                                   \
    }

GEMM_BATCHED_EX_FN(cublasGemmBatchedEx, "cublasGemmBatchedEx", int)
GEMM_BATCHED_EX_FN(cublasGemmBatchedEx_64, "cublasGemmBatchedEx_64", int64_t)

/* cublasSgemmEx: float scalars, 32F compute, A/B/C types per its table. */
static cublasStatus_t sgemm_ex(cublasHandle_t h, simcublas_gemm *r)
{
    cublasStatus_t st = simcublas_gemm_check(h, r);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (r->at != r->bt || !simcublasLt_types_ok(CUBLAS_COMPUTE_32F, CUDA_R_32F, r->at, r->ct))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    r->scale = CUDA_R_32F;
    return simcublas_gemm_run(h, r);
}

#define SGEMM_EX_FN(SYM, NAME, IT)                                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const float *alpha, const void *A, cudaDataType Atype, IT lda, const void *B,      \
                       cudaDataType Btype, IT ldb, const float *beta, void *C, cudaDataType Ctype, IT ldc)      \
    {                                                                                                           \
        simcublas_gemm r = {EX_REQ, .name = NAME, .batch = 1, .a = A, .b = B, .c = C};                          \
        return sgemm_ex(handle, &r);                                                                            \
    }

SGEMM_EX_FN(cublasSgemmEx, "cublasSgemmEx", int)
SGEMM_EX_FN(cublasSgemmEx_64, "cublasSgemmEx_64", int64_t)
