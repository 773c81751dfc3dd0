// Output-side folding ((AB)^T = B^T A^T, TRANSFOLD_OUTPUT_FOLD=1): a GEMM's
// output transposed by cublasSgeam, as autograd's weight gradient is (a
// GEMM, then AccumulateGrad's transposing copy).
// Usage: output_fold STEPS VARIANT
//   plain      C = A B; T = C^T (geam); Y = T X; Y downloaded; C freed unread
//   read       the same, and C downloaded after the transpose (the GEMM runs)
//   overwrite  A overwritten (cudaMemset) between the GEMM and the transpose
//   typed      C = A B by cublasGemmEx (f32), the rest as plain
// The handle changed between the GEMM and its output's first reader (the
// deferred GEMM must run as it was called; C downloaded too):
//   math       C's GEMM under TF32 math mode, set back to default after it
//              (operands not exact in TF32, so the mode shows in C's bits)
//   stream     C's GEMM on stream s1, the handle then set to s2 for the
//              transpose and the GEMM reading it
//   ws         C's GEMM with workspace W1, the handle then given W2; W1 and
//              W2 downloaded (the stand-in's GEMM writes scratch there)
//   wsfree     as ws, and W1 freed before the transpose
//   destroy    C's GEMM on a second handle, destroyed before the transpose
//   pool       every buffer from cudaMallocAsync on the handle's stream s,
//              C's GEMM with a workspace W1 of the pool; W1, A and B freed
//              (cudaFreeAsync on s) before the transpose, as PyTorch's
//              cudaMallocAsync backend frees a weight gradient's inputs and
//              cuBLAS workspace before AccumulateGrad's copy
//   poolfull   as pool, then a BIG-byte cudaMallocAsync on s before the
//              transpose (with SIMCUDA_POOL_LIMIT set so that it fits only
//              once W1, A and B are given back), freed after it
//   batched    C = A B for NB matrices (cublasSgemmStridedBatched), T = C^T
//              by the transpose_batched kernel (a rule: tests/e2e/rules),
//              Y = T X strided-batched too
#include "common.h"
#include "kernels.cuh"

enum { M = 12, K = 8, N = 20, P = 6, NB = 3 };
static const size_t POOL_WS = 8u << 20, BIG = 48u << 20;
static const float ONE = 1.0f, ZERO = 0.0f;

static cudaStream_t pool_stream; // non-NULL: buffers come from cudaMallocAsync on it

static float *dev_alloc(size_t bytes)
{
    void *d = NULL;
    if (pool_stream)
        CK(cudaMallocAsync(&d, bytes, pool_stream));
    else
        CK(cudaMalloc(&d, bytes));
    return (float *)d;
}

static void dev_free(void *p)
{
    if (pool_stream)
        CK(cudaFreeAsync(p, pool_stream));
    else
        CK(cudaFree(p));
}

static float *upload(size_t n, unsigned seed, bool fine = false)
{
    float *h = (float *)malloc(n * sizeof(float)), *d = dev_alloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed) + (fine ? (float)(i % 7 + 1) / 3.0f : 0.0f);
    if (pool_stream) {
        CK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, pool_stream));
        CK(cudaStreamSynchronize(pool_stream));
    } else {
        CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    }
    free(h);
    return d;
}

/* The batched variant: NB GEMMs a step, their outputs transposed at once. */
static int batched(int steps)
{
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    const long long sa = M * K, sb = K * N, sc = M * N, sx = M * P, sy = N * P;
    for (int step = 0; step < steps; step++) {
        float *a = upload(NB * sa, 1 + step), *b = upload(NB * sb, 20 + step), *x = upload(NB * sx, 40 + step);
        float *c, *t, *y;
        CK(cudaMalloc(&c, NB * sc * sizeof(float)));
        CK(cudaMalloc(&t, NB * sc * sizeof(float)));
        CK(cudaMalloc(&y, NB * sy * sizeof(float)));
        CKB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &ONE, a, M, sa, b, K, sb, &ZERO, c, M, sc,
                                      NB));
        // C column-major M x N is row-major N x M: its transpose is row-major M x N
        transpose_batched<<<grid2d(N, M, NB), dim3(TILE, TILE)>>>(t, c, N, M, NB);
        CK(cudaGetLastError());
        CKB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, N, P, M, &ONE, t, N, sc, x, M, sx, &ZERO, y, N, sy,
                                      NB));
        char label[32];
        snprintf(label, sizeof label, "step %d Y", step);
        show_dev(label, y, NB * sy, 4);
        float *bufs[] = {c, t, y, a, b, x};
        for (float *p : bufs) CK(cudaFree(p));
    }
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 3;
    const char *v = argc > 2 ? argv[2] : "plain";
    bool is_math = strcmp(v, "math") == 0, is_stream = strcmp(v, "stream") == 0;
    bool is_ws = strcmp(v, "ws") == 0 || strcmp(v, "wsfree") == 0, is_destroy = strcmp(v, "destroy") == 0;
    bool read_c = strcmp(v, "read") == 0 || is_math || is_stream || is_ws || is_destroy;
    bool is_full = strcmp(v, "poolfull") == 0, is_pool = strcmp(v, "pool") == 0 || is_full;
    if (strcmp(v, "batched") == 0)
        return batched(steps);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    if (is_pool) {
        CK(cudaStreamCreate(&pool_stream));
        CKB(cublasSetStream(h, pool_stream));
    }
    cudaStream_t s1 = NULL, s2 = NULL;
    if (is_stream) {
        CK(cudaStreamCreate(&s1));
        CK(cudaStreamCreate(&s2));
    }
    for (int step = 0; step < steps; step++) {
        // column-major: A M x K, B K x N, C M x N, T N x M, X M x P, Y N x P
        float *a = upload(M * K, 1 + step, is_math), *b = upload(K * N, 20 + step, is_math);
        float *x = upload(M * P, 40 + step);
        float *w1 = NULL, *w2 = NULL;
        float *c = dev_alloc(M * N * sizeof(float)), *t = dev_alloc(M * N * sizeof(float));
        float *y = dev_alloc(N * P * sizeof(float));
        if (is_pool) {
            w1 = dev_alloc(POOL_WS);
            CKB(cublasSetWorkspace(h, w1, POOL_WS));
        }
        cublasHandle_t g = h; // the handle C's GEMM runs on
        if (is_destroy)
            CKB(cublasCreate(&g));
        if (is_math)
            CKB(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
        if (is_stream)
            CKB(cublasSetStream(h, s1));
        if (is_ws) {
            CK(cudaMalloc(&w1, 1024));
            CK(cudaMalloc(&w2, 2048));
            CK(cudaMemset(w1, 0, 1024));
            CK(cudaMemset(w2, 0, 2048));
            CKB(cublasSetWorkspace(h, w1, 1024));
        }
        if (strcmp(v, "typed") == 0)
            CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &ONE, a, CUDA_R_32F, M, b, CUDA_R_32F, K, &ZERO, c,
                             CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        else
            CKB(cublasSgemm(g, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &ONE, a, M, b, K, &ZERO, c, M));
        if (strcmp(v, "overwrite") == 0)
            CK(cudaMemset(a, 0, M * K * sizeof(float)));
        if (is_math)
            CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
        if (is_stream) { // s2 ordered after C's GEMM, as the program's own rule
            cudaEvent_t ev;
            CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
            CK(cudaEventRecord(ev, s1));
            CK(cudaStreamWaitEvent(s2, ev, 0));
            CK(cudaEventDestroy(ev));
            CKB(cublasSetStream(h, s2));
        }
        if (is_ws)
            CKB(cublasSetWorkspace(h, w2, 2048));
        if (strcmp(v, "wsfree") == 0) {
            CK(cudaFree(w1));
            w1 = NULL;
        }
        if (is_destroy)
            CKB(cublasDestroy(g));
        void *big = NULL;
        if (is_pool) { // the workspace goes back to the library's own, then the inputs die
            CKB(cublasSetWorkspace(h, NULL, 0));
            dev_free(w1);
            dev_free(a);
            dev_free(b);
            w1 = a = b = NULL;
            if (is_full)
                CK(cudaMallocAsync(&big, BIG, pool_stream));
        }
        CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, &ONE, c, M, &ZERO, t, N, t, N));
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, P, M, &ONE, t, N, x, M, &ZERO, y, N));
        if (is_stream)
            CK(cudaDeviceSynchronize());
        char label[32];
        snprintf(label, sizeof label, "step %d Y", step);
        show_dev(label, y, N * P, 4);
        if (read_c) {
            snprintf(label, sizeof label, "step %d C", step);
            show_dev(label, c, M * N, 4);
        }
        if (w1) {
            snprintf(label, sizeof label, "step %d W1", step);
            show_dev(label, w1, 4, 4);
        }
        if (w2) {
            snprintf(label, sizeof label, "step %d W2", step);
            show_dev(label, w2, 4, 4);
        }
        if (is_ws)
            CKB(cublasSetStream(h, NULL)); // back to the library's workspace before W1 and W2 go
        if (big)
            dev_free(big);
        float *bufs[] = {c, t, y, a, b, x, w1, w2};
        for (float *p : bufs)
            if (p) dev_free(p);
    }
    if (pool_stream) {
        CK(cudaStreamSynchronize(pool_stream));
        CK(cudaStreamDestroy(pool_stream));
    }
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
