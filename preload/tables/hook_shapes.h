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
/* cublas{Set,Get}{Vector,Matrix}(Async)(_64). */
#define TF_P_SETGET_VEC(I) (I, I, const void *, I, void *, I)
#define TF_P_SETGET_VEC_ASYNC(I) (I, I, const void *, I, void *, I, cudaStream_t)
#define TF_P_SETGET_MAT(I) (I, I, I, const void *, I, void *, I)
#define TF_P_SETGET_MAT_ASYNC(I) (I, I, I, const void *, I, void *, I, cudaStream_t)
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

/* Driver launches: function, grid, block, shared memory, stream, params. */
#define TF_P_CU_GRID CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, \
    unsigned int, unsigned int, CUstream, void **
#define TF_P_CU_LAUNCH (TF_P_CU_GRID, void **)
#define TF_P_CU_LAUNCH_COOP (TF_P_CU_GRID)

/* Runtime 2D copies and sets. */
#define TF_P_MEMCPY2D (void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind)
#define TF_P_MEMCPY2D_ASYNC (void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t)

/* The runtime's driver entry-point resolvers. */
#define TF_P_ENTRY_POINT (const char *, void **, unsigned long long, enum cudaDriverEntryPointQueryResult *)
#define TF_P_ENTRY_POINT_BY_VERSION \
    (const char *, void **, unsigned int, unsigned long long, enum cudaDriverEntryPointQueryResult *)
#define TF_P_REGISTER_FUNCTION \
    (void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *, dim3 *, int *)

/* Batched copies. */
#define TF_P_RT_BATCH (void *const *, const void *const *, const size_t *, size_t, struct cudaMemcpyAttributes *, \
    size_t *, size_t, cudaStream_t)
#define TF_P_CU_BATCH (CUdeviceptr *, CUdeviceptr *, size_t *, size_t, CUmemcpyAttributes *, size_t *, size_t, CUstream)

#endif
