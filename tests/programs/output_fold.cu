// Output-side folding ((AB)^T = B^T A^T, TRANSFOLD_OUTPUT_FOLD=1): a GEMM's
// output transposed by cublasSgeam, as autograd's weight gradient is (a
// GEMM, then AccumulateGrad's transposing copy).
// Usage: output_fold STEPS VARIANT
//   plain      C = A B; T = C^T (geam); Y = T X; Y downloaded; C freed unread
//   read       the same, and C downloaded after the transpose (the GEMM runs)
//   overwrite  A overwritten (cudaMemset) between the GEMM and the transpose
//   typed      C = A B by cublasGemmEx (f32), the rest as plain
#include "common.h"

enum { M = 12, K = 8, N = 20, P = 6 };
static const float ONE = 1.0f, ZERO = 0.0f;

static float *upload(size_t n, unsigned seed)
{
    float *h = (float *)malloc(n * sizeof(float)), *d = NULL;
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed);
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 3;
    const char *v = argc > 2 ? argv[2] : "plain";
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    for (int step = 0; step < steps; step++) {
        // column-major: A M x K, B K x N, C M x N, T N x M, X M x P, Y N x P
        float *a = upload(M * K, 1 + step), *b = upload(K * N, 20 + step), *x = upload(M * P, 40 + step);
        float *c, *t, *y;
        CK(cudaMalloc(&c, M * N * sizeof(float)));
        CK(cudaMalloc(&t, M * N * sizeof(float)));
        CK(cudaMalloc(&y, N * P * sizeof(float)));
        if (strcmp(v, "typed") == 0)
            CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &ONE, a, CUDA_R_32F, M, b, CUDA_R_32F, K, &ZERO, c,
                             CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        else
            CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &ONE, a, M, b, K, &ZERO, c, M));
        if (strcmp(v, "overwrite") == 0)
            CK(cudaMemset(a, 0, M * K * sizeof(float)));
        CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, N, M, &ONE, c, M, &ZERO, t, N, t, N));
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, P, M, &ONE, t, N, x, M, &ZERO, y, N));
        char label[32];
        snprintf(label, sizeof label, "step %d Y", step);
        show_dev(label, y, N * P, 4);
        if (strcmp(v, "read") == 0) {
            snprintf(label, sizeof label, "step %d C", step);
            show_dev(label, c, M * N, 4);
        }
        float *bufs[] = {c, t, y, a, b, x};
        for (float *p : bufs) CK(cudaFree(p));
    }
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
