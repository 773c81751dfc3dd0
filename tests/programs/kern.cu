// Transpose kernels launched with <<<>>> in front of cuBLAS GEMMs.
// Usage: kern CASE
//   naive, tiled       f32 W (24 x 16 row-major) transposed into Wt (16 x 24
//                      row-major), Y = X * Wt through cublasGemmEx
//   batched            3 transposes in one launch, cublasGemmStridedBatchedEx
//   bf16               the seed: W[N,K] bf16 transposed, Y = X * W^T through
//                      cublasGemmEx (bf16 in, f32 compute, bf16 out)
//   half               f16 transpose consumed by cublasHgemm
//   writes_src         naive transpose, then a kernel scales W in place, GEMM
//   unrelated          naive transpose, then a kernel scales another buffer, GEMM
//   readback           naive transpose, GEMM, Wt copied to the host
//   launch_api         the naive transpose through cudaLaunchKernel
//   launch_exc         the naive transpose through cudaLaunchKernelExC
//   capture            naive transpose on a stream, then a capture of that
//                      stream whose kernel scales Wt; Wt read on the host
//                      before and after the graph runs
#include "common.h"
#include "kernels.cuh"

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { ROWS = 24, COLS = 16, M = 10 };

// Row-major Y[M, ROWS] = X[M, COLS] * Wt[COLS, ROWS]; in cuBLAS terms
// Y^T (ROWS x M) = Wt^T * X^T, Wt as operand A (col-major ROWS x COLS, ld ROWS).
static float *gemm_ex(const float *wt, const float *x)
{
    float *y = (float *)dev_zero(M * ROWS * sizeof(float));
    CKB(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &ONE, wt, CUDA_R_32F, ROWS, x, CUDA_R_32F, COLS,
                     &ZERO, y, CUDA_R_32F, ROWS, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return y;
}

static void f32_case(const char *name)
{
    float *w = dev_f32(ROWS * COLS, 1), *x = dev_f32(M * COLS, 2);
    float *wt = (float *)dev_zero(ROWS * COLS * sizeof(float));
    float *u = is(name, "unrelated") ? dev_f32(100, 6) : NULL;
    int rows = ROWS, cols = COLS;
    void *args[] = {&wt, &w, &rows, &cols};
    if (is(name, "tiled")) {
        transpose_tiled<<<grid2d(ROWS, COLS), dim3(TILE, TILE)>>>(wt, w, ROWS, COLS);
    } else if (is(name, "launch_api")) {
        CK(cudaLaunchKernel((const void *)transpose_naive, grid2d(ROWS, COLS), dim3(TILE, TILE), args, 0, 0));
    } else if (is(name, "launch_exc")) {
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = grid2d(ROWS, COLS);
        cfg.blockDim = dim3(TILE, TILE);
        CK(cudaLaunchKernelExC(&cfg, (const void *)transpose_naive, args));
    } else
        transpose_naive<<<grid2d(ROWS, COLS), dim3(TILE, TILE)>>>(wt, w, ROWS, COLS);
    CK(cudaGetLastError());
    if (is(name, "writes_src"))
        scale_f32<<<(ROWS * COLS + 63) / 64, 64>>>(w, ROWS * COLS, 2.0f);
    else if (u)
        scale_f32<<<2, 64>>>(u, 100, 2.0f);
    CK(cudaGetLastError());
    float *y = gemm_ex(wt, x);
    if (is(name, "readback")) show_dev("Wt", wt, ROWS * COLS, 4);
    CK(cudaFree(wt));
    show_dev("Y", y, M * ROWS, 4);
    if (u) show_dev("U", u, 100, 4);
}

static void batched_case(void)
{
    enum { B = 3 };
    float *w = dev_f32(B * ROWS * COLS, 1), *x = dev_f32(B * M * COLS, 2);
    float *wt = (float *)dev_zero(B * ROWS * COLS * sizeof(float)), *y = (float *)dev_zero(B * M * ROWS * 4);
    transpose_batched<<<grid2d(ROWS, COLS, B), dim3(TILE, TILE)>>>(wt, w, ROWS, COLS, B);
    CK(cudaGetLastError());
    CKB(cublasGemmStridedBatchedEx(H, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &ONE, wt, CUDA_R_32F, ROWS,
                                   ROWS * COLS, x, CUDA_R_32F, COLS, M * COLS, &ZERO, y, CUDA_R_32F, ROWS, M * ROWS,
                                   B, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    CK(cudaFree(wt));
    show_dev("Y", y, B * M * ROWS, 4);
}

// The seed's pattern: W[N,K] (row-major bf16) -> t = W^T [K,N]; Y[MS,N] = X[MS,K] * t.
static void bf16_case(void)
{
    enum { MS = 32, N = 64, K = 96 };
    __nv_bfloat16 *w = (__nv_bfloat16 *)dev_fill(TF_BF16, N * K, 11), *x = (__nv_bfloat16 *)dev_fill(TF_BF16, MS * K, 12);
    __nv_bfloat16 *t = (__nv_bfloat16 *)dev_zero(N * K * 2), *y = (__nv_bfloat16 *)dev_zero(MS * N * 2);
    transpose_bf16<<<grid2d(N, K), dim3(TILE, TILE)>>>(t, w, N, K);
    CK(cudaGetLastError());
    // Y^T (N x MS, col-major) = t^T (col-major N x K, ld N) * X^T (K x MS, ld K)
    CKB(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, N, MS, K, &ONE, t, CUDA_R_16BF, N, x, CUDA_R_16BF, K, &ZERO, y,
                     CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    CK(cudaFree(t));
    show_dev("Y", y, MS * N, 2);
}

static void half_case(void)
{
    __half *w = (__half *)dev_fill(TF_F16, ROWS * COLS, 1), *x = (__half *)dev_fill(TF_F16, M * COLS, 2);
    __half *wt = (__half *)dev_zero(ROWS * COLS * 2), *y = (__half *)dev_zero(M * ROWS * 2);
    transpose_half<<<grid2d(ROWS, COLS), dim3(TILE, TILE)>>>(wt, w, ROWS, COLS);
    CK(cudaGetLastError());
    const __half one = __float2half(1.0f), zero = __float2half(0.0f);
    CKB(cublasHgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &one, wt, ROWS, x, COLS, &zero, y, ROWS));
    CK(cudaFree(wt));
    show_dev("Y", y, M * ROWS, 2);
}

// A deferral made before a capture must run before it: replayed inside the
// capture, it would land in the graph and the host would read stale Wt.
static void capture_case(void)
{
    float *w = dev_f32(ROWS * COLS, 1);
    float *wt = (float *)dev_zero(ROWS * COLS * sizeof(float));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    transpose_naive<<<grid2d(ROWS, COLS), dim3(TILE, TILE), 0, s>>>(wt, w, ROWS, COLS);
    CK(cudaGetLastError());
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    scale_f32<<<(ROWS * COLS + 63) / 64, 64, 0, s>>>(wt, ROWS * COLS, 2.0f);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaStreamSynchronize(s));
    show_dev("Wt before the graph", wt, ROWS * COLS, 4);
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    show_dev("Wt after the graph", wt, ROWS * COLS, 4);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(wt));
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    CKB(cublasCreate(&H));
    const char *c = argv[1];
    if (is(c, "naive") || is(c, "tiled") || is(c, "writes_src") || is(c, "unrelated") || is(c, "readback") ||
        is(c, "launch_api") || is(c, "launch_exc"))
        f32_case(c);
    else if (is(c, "batched"))
        batched_case();
    else if (is(c, "bf16"))
        bf16_case();
    else if (is(c, "half"))
        half_case();
    else if (is(c, "capture"))
        capture_case();
    else
        return usage(argv[0]);
    CKB(cublasDestroy(H));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
