/* The one generic path behind every typed cuBLAS GEMM/GEMV hook. Each
 * exported hook packs its arguments into gemm_args and names its kind. */
#ifndef TF_CUBLAS_GEMM_H
#define TF_CUBLAS_GEMM_H
#include "calls/describe.h"
#include "tables/hooks.h"

typedef enum gemm_shape { GEMM_MATMUL, GEMM_MATVEC } gemm_shape;

/* The union of the GEMM family's arguments. A GEMV keeps x in B (incx in
 * ldb) and y in C (incy in ldc), with k unused. Non-batched calls have
 * batch 1 and strides 0. */
typedef struct gemm_args {
    cublasHandle_t handle;
    cublasOperation_t ta, tb;
    int64_t m, n, k;
    const void *alpha, *beta;
    const void *A, *B;
    void *C;
    int64_t lda, ldb, ldc;
    long long sa, sb, sc;
    int64_t batch;
    cudaDataType at, bt, ct;           /* typed APIs: their element type */
    cublasComputeType_t compute;       /* Ex APIs only */
    cublasGemmAlgo_t algo;
} gemm_args;

typedef struct gemm_kind {
    const char *api;
    pl_fn_id id;
    gemm_shape shape;
    pl_stype stype;   /* TF_S_NONE: derived from compute and C types */
    cublasStatus_t (*invoke)(const gemm_args *a);
} gemm_kind;

cublasStatus_t pl_gemm_hook(const gemm_kind *k, const gemm_args *a);

#endif
