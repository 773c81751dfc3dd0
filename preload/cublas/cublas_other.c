/* cuBLAS calls that are not producers or foldable consumers but matter to
 * pending records: pointer-array batched GEMMs (their operands are listed in
 * device memory we cannot read, so everything pending must exist first) and
 * handle destruction (a replay needs the handle). */
#include "calls/describe.h"
#include "cublas/handle_settings.h"
#include "lt/fold_cache.h"
#include "tables/hooks.h"
#include "core/state.h"

static void before_opaque_gemm(cublasHandle_t h, const char *api)
{
    if (pl_watching())
        pl_note_materialize_all(pl_cublas_stream(h), TF_WHY(opaque_call, .str = {api}));
}

#define BATCHED(NAME, T, I)                                                                           \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k,  \
                        const T *alpha, const T *const A[], I lda, const T *const B[], I ldb,         \
                        const T *beta, T *const C[], I ldc, I batch)                                  \
    {                                                                                                 \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                          \
        before_opaque_gemm(h, #NAME);                                                                 \
        return TF_PASS(real(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch));         \
    }

#define BATCHED_EX(NAME, I)                                                                           \
    cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k,  \
                        const void *alpha, const void *const A[], cudaDataType at, I lda,             \
                        const void *const B[], cudaDataType bt, I ldb, const void *beta,              \
                        void *const C[], cudaDataType ct, I ldc, I batch,                             \
                        cublasComputeType_t compute, cublasGemmAlgo_t algo)                           \
    {                                                                                                 \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                          \
        before_opaque_gemm(h, #NAME);                                                                 \
        return TF_PASS(real(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc,      \
                            batch, compute, algo));                                                   \
    }

BATCHED(cublasSgemmBatched, float, int)
BATCHED(cublasDgemmBatched, double, int)
BATCHED(cublasCgemmBatched, cuComplex, int)
BATCHED(cublasZgemmBatched, cuDoubleComplex, int)
BATCHED(cublasHgemmBatched, pl_half, int)
BATCHED(cublasSgemmBatched_64, float, int64_t)
BATCHED(cublasDgemmBatched_64, double, int64_t)
BATCHED(cublasCgemmBatched_64, cuComplex, int64_t)
BATCHED(cublasZgemmBatched_64, cuDoubleComplex, int64_t)
BATCHED(cublasHgemmBatched_64, pl_half, int64_t)
BATCHED_EX(cublasGemmBatchedEx, int)
BATCHED_EX(cublasGemmBatchedEx_64, int64_t)

cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
    TF_REAL_OR(cublasDestroy_v2, TF_MISSING_CUBLAS);
    pl_cublas_handle_changed(); /* and after: the address may name a new handle */
    if (pl_watching() && h) {
        tf_engine *e = pl_lock();
        if (e)
            tf_materialize_handle(e, TF_ADDR(h), TF_WHY(cublas_handle_destroyed));
        pl_unlock(e);
    }
    /* A cuBLAS handle is a cuBLASLt handle too (PyTorch passes it to
     * cublasLtMatmul): folded Lt calls cached for it go with it. */
    if (pl_active() && h)
        lt_fold_forget_handle((cublasLtHandle_t)(void *)h);
    cublasStatus_t st = TF_PASS(real(h));
    pl_cublas_handle_changed();
    if (st == CUBLAS_STATUS_SUCCESS)
        pl_handle_ws_forget(h);
    return st;
}
