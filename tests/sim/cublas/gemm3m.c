/* The Gauss (3M) complex GEMMs: cublasCgemm3m, Zgemm3m, Cgemm3mEx and the
 * batched forms (+ _64). 3M is how the GPU computes the same product with
 * three real multiplications; the stand-in computes it on the reference
 * GEMM like cublasCgemm. transfold does not fold these calls, so, as for
 * the Level-1/2/3 calls, their operands are announced at the driver first
 * (access.h; pointer-array forms: the arrays). Cgemm3mEx takes complex
 * single A, B and C only (the 8-bit complex inputs: NOT_SUPPORTED).
 * Trace: the GEMM line (trace_names) named cublasCgemm3m, ... */
#include "access.h"
#include "args.h"

#define REQ(NAME, DT)                                                                                     \
    .name = NAME, .ta = transa, .tb = transb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, \
    .at = DT, .bt = DT, .ct = DT, .scale = DT, .alpha = alpha, .beta = beta

#define GEMM3M_FN(SYM, NAME, IT, T, DT)                                                                       \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n, \
                       IT k, const T *alpha, const T *A, IT lda, const T *B, IT ldb, const T *beta, T *C, IT ldc)   \
    {                                                                                                         \
        simcublas_gemm r = {REQ(NAME, DT), .batch = 1, .a = A, .b = B, .c = C};                               \
        return simcublas_gemm_announced(handle, &r);                                                                               \
    }
#define GEMM3M_STRIDED_FN(SYM, NAME, IT, T, DT)                                                                 \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const T *alpha, const T *A, IT lda, long long int strideA, const T *B, IT ldb,     \
                       long long int strideB, const T *beta, T *C, IT ldc, long long int strideC, IT batchCount) \
    {                                                                                                           \
        simcublas_gemm r = {REQ(NAME, DT), .batch = batchCount, .a = A, .b = B, .c = C, .sa = strideA,          \
                            .sb = strideB, .sc = strideC};                                                      \
        return simcublas_gemm_announced(handle, &r);                                                                                 \
    }
#define GEMM3M_BATCHED_FN(SYM, NAME, IT, T, DT)                                                                \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,  \
                       IT k, const T *alpha, const T *const Aarray[], IT lda, const T *const Barray[], IT ldb, \
                       const T *beta, T *const Carray[], IT ldc, IT batchCount)                                \
    {                                                                                                          \
        simcublas_gemm r = {REQ(NAME, DT), .batch = batchCount, .a = Aarray, .b = Barray, .c = (void *)Carray, \
                            .arrays = true};                                                                   \
        return simcublas_gemm_announced(handle, &r);                                                                                \
    }
#define GEMM3M_EX_FN(SYM, NAME, IT, T, DT)                                                                      \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const T *alpha, const void *A, cudaDataType Atype, IT lda, const void *B,          \
                       cudaDataType Btype, IT ldb, const T *beta, void *C, cudaDataType Ctype, IT ldc)          \
    {                                                                                                           \
        if (simcublas_handle_ok(handle) && (Atype != DT || Btype != DT || Ctype != DT))                         \
            return CUBLAS_STATUS_NOT_SUPPORTED;                                                                 \
        simcublas_gemm r = {REQ(NAME, DT), .batch = 1, .a = A, .b = B, .c = C};                                 \
        return simcublas_gemm_announced(handle, &r);                                                                                 \
    }

SIMCUBLAS_BOTH_WIDTHS(GEMM3M_FN, cublasCgemm3m, "cublasCgemm3m", cuComplex, CUDA_C_32F)
SIMCUBLAS_BOTH_WIDTHS(GEMM3M_FN, cublasZgemm3m, "cublasZgemm3m", cuDoubleComplex, CUDA_C_64F)
SIMCUBLAS_BOTH_WIDTHS(GEMM3M_STRIDED_FN, cublasCgemm3mStridedBatched, "cublasCgemm3mStridedBatched", cuComplex,
                      CUDA_C_32F)
SIMCUBLAS_BOTH_WIDTHS(GEMM3M_BATCHED_FN, cublasCgemm3mBatched, "cublasCgemm3mBatched", cuComplex, CUDA_C_32F)
SIMCUBLAS_BOTH_WIDTHS(GEMM3M_EX_FN, cublasCgemm3mEx, "cublasCgemm3mEx", cuComplex, CUDA_C_32F)
