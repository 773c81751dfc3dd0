/* The exported cuBLAS GEMM/GEMV symbols: thin wrappers that pack their
 * arguments for pl_gemm_hook, and the matching calls of the real function. */
#include "cublas/cublas_gemm.h"
#include "core/state.h"

/* The pass-through path, taken before the arguments are packed: with
 * nothing pending a GEMM costs a few loads and the real call. */
#define PASS_FAST(NAME, ...)                                \
    do {                                                    \
        pl_fn_##NAME real_ = TF_REAL(NAME);                 \
        if (real_ && !pl_consumer_watching())                  \
            return TF_PASS(real_(__VA_ARGS__));             \
    } while (0)

#define KIND(NAME, SHAPE, STYPE) \
    static const gemm_kind kind_##NAME = { #NAME, TF_ID_##NAME, SHAPE, STYPE, invoke_##NAME }

#define GEMM(NAME, T, I, STYPE, DT)                                                                  \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, (I)a->k, a->alpha, a->A,    \
                             (I)a->lda, a->B, (I)a->ldb, a->beta, a->C, (I)a->ldc);                  \
    }                                                                                                \
    KIND(NAME, GEMM_MATMUL, STYPE);                                                                  \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, \
                        const T *alpha, const T *A, I lda, const T *B, I ldb, const T *beta, T *C,   \
                        I ldc)                                                                       \
    {                                                                                                \
        PASS_FAST(NAME, h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                    \
        gemm_args a = { .handle = h, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,     \
                        .beta = beta, .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc,    \
                        .batch = 1, .at = DT, .bt = DT, .ct = DT };                                  \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

#define GEMM_SB(NAME, T, I, STYPE, DT)                                                               \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, (I)a->k, a->alpha, a->A,    \
                             (I)a->lda, a->sa, a->B, (I)a->ldb, a->sb, a->beta, a->C, (I)a->ldc,     \
                             a->sc, (I)a->batch);                                                    \
    }                                                                                                \
    KIND(NAME, GEMM_MATMUL, STYPE);                                                                  \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, \
                        const T *alpha, const T *A, I lda, long long sa, const T *B, I ldb,          \
                        long long sb, const T *beta, T *C, I ldc, long long sc, I batch)             \
    {                                                                                                \
        PASS_FAST(NAME, h, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch); \
        gemm_args a = { .handle = h, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,     \
                        .beta = beta, .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc,    \
                        .sa = sa, .sb = sb, .sc = sc, .batch = batch, .at = DT, .bt = DT, .ct = DT }; \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

#define GEMV(NAME, T, I, STYPE, DT)                                                                  \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, (I)a->m, (I)a->n, a->alpha, a->A, (I)a->lda, a->B,   \
                             (I)a->ldb, a->beta, a->C, (I)a->ldc);                                   \
    }                                                                                                \
    KIND(NAME, GEMM_MATVEC, STYPE);                                                                  \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t t, I m, I n, const T *alpha, const T *A, \
                        I lda, const T *x, I incx, const T *beta, T *y, I incy)                      \
    {                                                                                                \
        PASS_FAST(NAME, h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);                          \
        gemm_args a = { .handle = h, .ta = t, .m = m, .n = n, .alpha = alpha, .beta = beta, .A = A,  \
                        .B = x, .C = y, .lda = lda, .ldb = incx, .ldc = incy, .batch = 1,            \
                        .at = DT, .bt = DT, .ct = DT };                                              \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

/* cublasSgemmEx / cublasCgemmEx: typed scale, matrices of any type. */
#define XGEMM_EX(NAME, T, I, STYPE)                                                                  \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, (I)a->k, a->alpha, a->A,    \
                             a->at, (I)a->lda, a->B, a->bt, (I)a->ldb, a->beta, a->C, a->ct,         \
                             (I)a->ldc);                                                             \
    }                                                                                                \
    KIND(NAME, GEMM_MATMUL, STYPE);                                                                  \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, \
                        const T *alpha, const void *A, cudaDataType at, I lda, const void *B,        \
                        cudaDataType bt, I ldb, const T *beta, void *C, cudaDataType ct, I ldc)      \
    {                                                                                                \
        PASS_FAST(NAME, h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc);        \
        gemm_args a = { .handle = h, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,     \
                        .beta = beta, .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc,    \
                        .batch = 1, .at = at, .bt = bt, .ct = ct };                                  \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

#define GEMM_EX(NAME, I)                                                                             \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, (I)a->k, a->alpha, a->A,    \
                             a->at, (I)a->lda, a->B, a->bt, (I)a->ldb, a->beta, a->C, a->ct,         \
                             (I)a->ldc, a->compute, a->algo);                                        \
    }                                                                                                \
    KIND(NAME, GEMM_MATMUL, TF_S_NONE);                                                              \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, \
                        const void *alpha, const void *A, cudaDataType at, I lda, const void *B,     \
                        cudaDataType bt, I ldb, const void *beta, void *C, cudaDataType ct, I ldc,   \
                        cublasComputeType_t compute, cublasGemmAlgo_t algo)                          \
    {                                                                                                \
        PASS_FAST(NAME, h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, compute, algo); \
        gemm_args a = { .handle = h, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,     \
                        .beta = beta, .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc,    \
                        .batch = 1, .at = at, .bt = bt, .ct = ct, .compute = compute, .algo = algo }; \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

#define GEMM_SB_EX(NAME, I)                                                                          \
    static cublasStatus_t invoke_##NAME(const gemm_args *a)                                          \
    {                                                                                                \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, (I)a->k, a->alpha, a->A,    \
                             a->at, (I)a->lda, a->sa, a->B, a->bt, (I)a->ldb, a->sb, a->beta, a->C,  \
                             a->ct, (I)a->ldc, a->sc, (I)a->batch, a->compute, a->algo);             \
    }                                                                                                \
    KIND(NAME, GEMM_MATMUL, TF_S_NONE);                                                              \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k, \
                        const void *alpha, const void *A, cudaDataType at, I lda, long long sa,      \
                        const void *B, cudaDataType bt, I ldb, long long sb, const void *beta,       \
                        void *C, cudaDataType ct, I ldc, long long sc, I batch,                      \
                        cublasComputeType_t compute, cublasGemmAlgo_t algo)                          \
    {                                                                                                \
        PASS_FAST(NAME, h, ta, tb, m, n, k, alpha, A, at, lda, sa, B, bt, ldb, sb, beta, C, ct, ldc, sc, \
                  batch, compute, algo);                                                             \
        gemm_args a = { .handle = h, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .alpha = alpha,     \
                        .beta = beta, .A = A, .B = B, .C = C, .lda = lda, .ldb = ldb, .ldc = ldc,    \
                        .sa = sa, .sb = sb, .sc = sc, .batch = batch, .at = at, .bt = bt, .ct = ct,  \
                        .compute = compute, .algo = algo };                                          \
        return pl_gemm_hook(&kind_##NAME, &a);                                                       \
    }

GEMM(cublasSgemm_v2, float, int, TF_S_F32, CUDA_R_32F)
GEMM(cublasDgemm_v2, double, int, TF_S_F64, CUDA_R_64F)
GEMM(cublasCgemm_v2, cuComplex, int, TF_S_C32, CUDA_C_32F)
GEMM(cublasZgemm_v2, cuDoubleComplex, int, TF_S_C64, CUDA_C_64F)
GEMM(cublasHgemm, pl_half, int, TF_S_F16, CUDA_R_16F)
GEMM(cublasSgemm_v2_64, float, int64_t, TF_S_F32, CUDA_R_32F)
GEMM(cublasDgemm_v2_64, double, int64_t, TF_S_F64, CUDA_R_64F)
GEMM(cublasCgemm_v2_64, cuComplex, int64_t, TF_S_C32, CUDA_C_32F)
GEMM(cublasZgemm_v2_64, cuDoubleComplex, int64_t, TF_S_C64, CUDA_C_64F)
GEMM(cublasHgemm_64, pl_half, int64_t, TF_S_F16, CUDA_R_16F)

GEMM_SB(cublasSgemmStridedBatched, float, int, TF_S_F32, CUDA_R_32F)
GEMM_SB(cublasDgemmStridedBatched, double, int, TF_S_F64, CUDA_R_64F)
GEMM_SB(cublasCgemmStridedBatched, cuComplex, int, TF_S_C32, CUDA_C_32F)
GEMM_SB(cublasZgemmStridedBatched, cuDoubleComplex, int, TF_S_C64, CUDA_C_64F)
GEMM_SB(cublasHgemmStridedBatched, pl_half, int, TF_S_F16, CUDA_R_16F)
GEMM_SB(cublasSgemmStridedBatched_64, float, int64_t, TF_S_F32, CUDA_R_32F)
GEMM_SB(cublasDgemmStridedBatched_64, double, int64_t, TF_S_F64, CUDA_R_64F)
GEMM_SB(cublasCgemmStridedBatched_64, cuComplex, int64_t, TF_S_C32, CUDA_C_32F)
GEMM_SB(cublasZgemmStridedBatched_64, cuDoubleComplex, int64_t, TF_S_C64, CUDA_C_64F)
GEMM_SB(cublasHgemmStridedBatched_64, pl_half, int64_t, TF_S_F16, CUDA_R_16F)

GEMV(cublasSgemv_v2, float, int, TF_S_F32, CUDA_R_32F)
GEMV(cublasDgemv_v2, double, int, TF_S_F64, CUDA_R_64F)
GEMV(cublasSgemv_v2_64, float, int64_t, TF_S_F32, CUDA_R_32F)
GEMV(cublasDgemv_v2_64, double, int64_t, TF_S_F64, CUDA_R_64F)
GEMV(cublasCgemv_v2, cuComplex, int, TF_S_C32, CUDA_C_32F)
GEMV(cublasZgemv_v2, cuDoubleComplex, int, TF_S_C64, CUDA_C_64F)
GEMV(cublasCgemv_v2_64, cuComplex, int64_t, TF_S_C32, CUDA_C_32F)
GEMV(cublasZgemv_v2_64, cuDoubleComplex, int64_t, TF_S_C64, CUDA_C_64F)

XGEMM_EX(cublasSgemmEx, float, int, TF_S_F32)
XGEMM_EX(cublasSgemmEx_64, float, int64_t, TF_S_F32)
XGEMM_EX(cublasCgemmEx, cuComplex, int, TF_S_C32)
XGEMM_EX(cublasCgemmEx_64, cuComplex, int64_t, TF_S_C32)

GEMM_EX(cublasGemmEx, int)
GEMM_EX(cublasGemmEx_64, int64_t)
GEMM_SB_EX(cublasGemmStridedBatchedEx, int)
GEMM_SB_EX(cublasGemmStridedBatchedEx_64, int64_t)
