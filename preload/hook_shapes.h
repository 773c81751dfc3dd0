/* Parameter lists shared by many typed cuBLAS entry points, so the hook
 * tables stay one line per symbol. T is the element type, I the integer type
 * of the 32- or 64-bit form. */
#ifndef TF_HOOK_SHAPES_H
#define TF_HOOK_SHAPES_H

#define TF_P_GEAM(T, I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, \
    const T *, const T *, I, const T *, const T *, I, T *, I)
#define TF_P_GEMM(T, I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const T *, const T *, I, const T *, I, const T *, T *, I)
#define TF_P_GEMM_SB(T, I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const T *, const T *, I, long long, const T *, I, long long, const T *, T *, I, long long, I)
#define TF_P_GEMM_BATCHED(T, I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const T *, const T *const[], I, const T *const[], I, const T *, T *const[], I, I)
#define TF_P_GEMV(T, I) (cublasHandle_t, cublasOperation_t, I, I, \
    const T *, const T *, I, const T *, I, const T *, T *, I)
/* cublasSgemmEx / cublasCgemmEx: typed scale, typeless matrices. */
#define TF_P_XGEMM_EX(T, I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const T *, const void *, cudaDataType, I, const void *, cudaDataType, I, \
    const T *, void *, cudaDataType, I)
#define TF_P_GEMM_EX(I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const void *, const void *, cudaDataType, I, const void *, cudaDataType, I, \
    const void *, void *, cudaDataType, I, cublasComputeType_t, cublasGemmAlgo_t)
#define TF_P_GEMM_SB_EX(I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const void *, const void *, cudaDataType, I, long long, const void *, cudaDataType, I, long long, \
    const void *, void *, cudaDataType, I, long long, I, cublasComputeType_t, cublasGemmAlgo_t)
#define TF_P_GEMM_BATCHED_EX(I) (cublasHandle_t, cublasOperation_t, cublasOperation_t, I, I, I, \
    const void *, const void *const[], cudaDataType, I, const void *const[], cudaDataType, I, \
    const void *, void *const[], cudaDataType, I, I, cublasComputeType_t, cublasGemmAlgo_t)

#endif
