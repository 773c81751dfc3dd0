/* The complex single *Ex forms with complex single data: cublasCgemmEx
 * (run as cublasCgemm, its operands announced as transfold does not fold
 * it), cublasCsyrkEx and Csyrk3mEx (as cublasCsyrk), cublasCherkEx and
 * Cherk3mEx (as cublasCherk), traced under their own names. The 8-bit
 * complex inputs these forms also accept on a GPU are not computed:
 * CUBLAS_STATUS_NOT_SUPPORTED. */
#include "access.h"
#include "level3.h"

#define GEMM_EX_FN(SYM, NAME, IT, ...)                                                                        \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n, \
                       IT k, const cuComplex *alpha, const void *A, cudaDataType Atype, IT lda, const void *B, \
                       cudaDataType Btype, IT ldb, const cuComplex *beta, void *C, cudaDataType Ctype, IT ldc) \
    {                                                                                                         \
        if (!simcublas_handle_ok(handle))                                                                     \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                                             \
        if (Atype != CUDA_C_32F || Btype != CUDA_C_32F || Ctype != CUDA_C_32F)                                \
            return CUBLAS_STATUS_NOT_SUPPORTED;                                                               \
        simcublas_gemm r = {.name = NAME, .ta = transa, .tb = transb, .m = m, .n = n, .k = k, .lda = lda,     \
                            .ldb = ldb, .ldc = ldc, .at = CUDA_C_32F, .bt = CUDA_C_32F, .ct = CUDA_C_32F,     \
                            .scale = CUDA_C_32F, .alpha = alpha, .beta = beta, .batch = 1, .a = A, .b = B,    \
                            .c = C};                                                                          \
        return simcublas_gemm_announced(handle, &r);                                                          \
    }

/* syrk (S = cuComplex) or herk (S = float) on complex single data. */
#define RANK_EX_FN(SYM, NAME, IT, S, typed)                                                                    \
    cublasStatus_t SYM(cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, IT n, IT k,      \
                       const S *alpha, const void *A, cudaDataType Atype, IT lda, const S *beta, void *C,      \
                       cudaDataType Ctype, IT ldc)                                                             \
    {                                                                                                          \
        if (!simcublas_handle_ok(handle))                                                                      \
            return CUBLAS_STATUS_NOT_INITIALIZED;                                                              \
        if (Atype != CUDA_C_32F || Ctype != CUDA_C_32F)                                                        \
            return CUBLAS_STATUS_NOT_SUPPORTED;                                                                \
        simcublas_l3_trace_as(NAME);                                                                           \
        return typed(handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);                                  \
    }

SIMCUBLAS_BOTH_WIDTHS(GEMM_EX_FN, cublasCgemmEx, "cublasCgemmEx")
SIMCUBLAS_BOTH_WIDTHS(RANK_EX_FN, cublasCsyrkEx, "cublasCsyrkEx", cuComplex, cublasCsyrk_v2_64)
SIMCUBLAS_BOTH_WIDTHS(RANK_EX_FN, cublasCsyrk3mEx, "cublasCsyrk3mEx", cuComplex, cublasCsyrk_v2_64)
SIMCUBLAS_BOTH_WIDTHS(RANK_EX_FN, cublasCherkEx, "cublasCherkEx", float, cublasCherk_v2_64)
SIMCUBLAS_BOTH_WIDTHS(RANK_EX_FN, cublasCherk3mEx, "cublasCherk3mEx", float, cublasCherk_v2_64)
