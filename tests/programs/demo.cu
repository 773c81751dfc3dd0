// The demo of `make demo`: the seed's pattern at 1/8 of its shapes.
//
// A compiler emitted t = transpose(W) as its own operation before
// matmul(X, t). Here the transpose is a cublasSgeam (as ONNX Runtime makes
// them) of a weight W[N,K] into Wt, then Y = X * W^T through cublasGemmEx
// reading Wt, and Wt is freed after use. Seed: bf16 X[768,13824] x
// W[5120,13824]^T; demo: f32 X[96,1728] x W[640,1728]^T.
//
// Prints Y's hash (common.h), so stdout is byte-comparable between runs; the
// inputs are multiples of 0.5, so Y is exact whatever the GEMM's algorithm.
// Also prints `transfold-ab: transpose_gemm <ms>` (CUDA events around the
// transpose and the GEMM) for `transfold ab`, when the events work.
#include "common.h"

enum { M = 96, N = 640, K = 1728 };

int main(void)
{
    cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasCreate(&h));

    // Row-major W[N,K] is column-major K x N (ld K); row-major X[M,K] is
    // column-major K x M (ld K); row-major Y[M,N] is column-major N x M.
    float *w = dev_f32((size_t)N * K, 1), *x = dev_f32((size_t)M * K, 2);
    float *y = (float *)dev_zero((size_t)M * N * sizeof(float));
    float *wt = NULL;
    CK(cudaMalloc(&wt, (size_t)N * K * sizeof(float)));

    cudaEvent_t start, stop;
    int timed = cudaEventCreate(&start) == cudaSuccess && cudaEventCreate(&stop) == cudaSuccess &&
                cudaEventRecord(start, 0) == cudaSuccess;

    // Wt = W^T: column-major N x K (ld N), i.e. row-major [K,N].
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, N, K, &one, w, K, &zero, w, K, wt, N));
    // Y^T (N x M) = Wt (N x K) * X^T (K x M): row-major Y = X * W^T.
    CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, wt, CUDA_R_32F, N, x, CUDA_R_32F, K, &zero, y,
                     CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));

    float ms = 0.0f;
    timed = timed && cudaEventRecord(stop, 0) == cudaSuccess && cudaEventSynchronize(stop) == cudaSuccess &&
            cudaEventElapsedTime(&ms, start, stop) == cudaSuccess;
    CK(cudaFree(wt));

    printf("demo: Y[%d,%d] = X[%d,%d] * W[%d,%d]^T, W^T made by cublasSgeam, GEMM by cublasGemmEx\n", M, N, M, K,
           N, K);
    show_dev("Y", y, (size_t)M * N, sizeof(float));
    if (timed) printf("transfold-ab: transpose_gemm %.4f\n", ms);

    CK(cudaFree(w));
    CK(cudaFree(x));
    CK(cudaFree(y));
    CKB(cublasDestroy(h));
    return 0;
}
