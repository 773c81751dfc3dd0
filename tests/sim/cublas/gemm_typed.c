/* The typed GEMM entry points, S/D/C/Z/H, plain, strided-batched and
 * pointer-array batched, 32- and 64-bit integer forms: each is one line
 * that describes the call to the shared path (gemm_core.c). Trace names are
 * the documented names without "_v2" (cublasSgemm, cublasSgemm_64,
 * cublasHgemmStridedBatched, ...). Hgemm scalars are __half; __half is only
 * declared for C++, so here it is its storage, uint16_t. */
#include "args.h"

#define REQ(NAME, DT, SDT)                                                                               \
    .name = NAME, .ta = transa, .tb = transb, .m = m, .n = n, .k = k, .lda = lda, .ldb = ldb, .ldc = ldc, \
    .at = DT, .bt = DT, .ct = DT, .scale = SDT, .alpha = alpha, .beta = beta

#define GEMM_FN(SYM, NAME, T, IT, DT, SDT)                                                                    \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n, \
                       IT k, const T *alpha, const T *A, IT lda, const T *B, IT ldb, const T *beta, T *C, IT ldc)   \
    {                                                                                                         \
        simcublas_gemm r = {REQ(NAME, DT, SDT), .batch = 1, .a = A, .b = B, .c = C};                          \
        return simcublas_gemm_run(handle, &r);                                                                \
    }

#define GEMM_STRIDED_FN(SYM, NAME, T, IT, DT, SDT)                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const T *alpha, const T *A, IT lda, long long int strideA, const T *B, IT ldb,     \
                       long long int strideB, const T *beta, T *C, IT ldc, long long int strideC, IT batchCount) \
    {                                                                                                           \
        simcublas_gemm r = {REQ(NAME, DT, SDT), .batch = batchCount, .a = A, .b = B, .c = C, .sa = strideA,     \
                            .sb = strideB, .sc = strideC};                                                      \
        return simcublas_gemm_run(handle, &r);                                                                  \
    }

#define GEMM_BATCHED_FN(SYM, NAME, T, IT, DT, SDT)                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,   \
                       IT k, const T *alpha, const T *const Aarray[], IT lda, const T *const Barray[], IT ldb,  \
                       const T *beta, T *const Carray[], IT ldc, IT batchCount)                                 \
    {                                                                                                           \
        simcublas_gemm r = {REQ(NAME, DT, SDT), .batch = batchCount, .a = Aarray, .b = Barray,                  \
                            .c = (void *)Carray, .arrays = true};                                               \
        return simcublas_gemm_run(handle, &r);                                                                  \
    }

/* All six forms of one element type. */
#define GEMM_FAMILY(P, T, DT, SDT, PLAIN, PLAIN64)                                                        \
    GEMM_FN(PLAIN, "cublas" #P "gemm", T, int, DT, SDT)                                                   \
    GEMM_FN(PLAIN64, "cublas" #P "gemm_64", T, int64_t, DT, SDT)                                          \
    GEMM_STRIDED_FN(cublas##P##gemmStridedBatched, "cublas" #P "gemmStridedBatched", T, int, DT, SDT)     \
    GEMM_STRIDED_FN(cublas##P##gemmStridedBatched_64, "cublas" #P "gemmStridedBatched_64", T, int64_t, DT, \
                    SDT)                                                                                  \
    GEMM_BATCHED_FN(cublas##P##gemmBatched, "cublas" #P "gemmBatched", T, int, DT, SDT)                   \
    GEMM_BATCHED_FN(cublas##P##gemmBatched_64, "cublas" #P "gemmBatched_64", T, int64_t, DT, SDT)

/* Not declared by cublas_api.h in C. */
#define HGEMM_PROTOS(IT, SUF)                                                                                      \
    cublasStatus_t cublasHgemm##SUF(cublasHandle_t, cublasOperation_t, cublasOperation_t, IT, IT, IT,                \
                                    const uint16_t *, const uint16_t *, IT, const uint16_t *, IT, const uint16_t *, \
                                    uint16_t *, IT);                                                                 \
    cublasStatus_t cublasHgemmStridedBatched##SUF(cublasHandle_t, cublasOperation_t, cublasOperation_t, IT, IT, IT,  \
                                                  const uint16_t *, const uint16_t *, IT, long long int,             \
                                                  const uint16_t *, IT, long long int, const uint16_t *, uint16_t *, \
                                                  IT, long long int, IT);                                            \
    cublasStatus_t cublasHgemmBatched##SUF(cublasHandle_t, cublasOperation_t, cublasOperation_t, IT, IT, IT,         \
                                           const uint16_t *, const uint16_t *const[], IT, const uint16_t *const[],   \
                                           IT, const uint16_t *, uint16_t *const[], IT, IT);
HGEMM_PROTOS(int, )
HGEMM_PROTOS(int64_t, _64)

GEMM_FAMILY(S, float, CUDA_R_32F, CUDA_R_32F, cublasSgemm_v2, cublasSgemm_v2_64)
GEMM_FAMILY(D, double, CUDA_R_64F, CUDA_R_64F, cublasDgemm_v2, cublasDgemm_v2_64)
GEMM_FAMILY(C, cuComplex, CUDA_C_32F, CUDA_C_32F, cublasCgemm_v2, cublasCgemm_v2_64)
GEMM_FAMILY(Z, cuDoubleComplex, CUDA_C_64F, CUDA_C_64F, cublasZgemm_v2, cublasZgemm_v2_64)
GEMM_FAMILY(H, uint16_t, CUDA_R_16F, CUDA_R_16F, cublasHgemm, cublasHgemm_64)
