/* cublasSgemmGroupedBatched and cublasGemmGroupedBatchedEx the way NVIDIA's
 * grouped-GEMM samples call them: two groups with their own flags, sizes
 * and scalars (group 0: two 3 x 2 by k 4 problems, N N; group 1: one
 * 2 x 3 by k 2 problem, T N), matrices listed in device pointer arrays.
 *
 * Usage: gemm_grouped
 * Prints every C ("<entry> <problem> <numbers...>");
 * tests/e2e/gemm_grouped_check.py recomputes them with numpy. */
#include <stdbool.h>

#include "common.h"

enum { PROBLEMS = 3 };

static const int M[2] = {3, 2}, N[2] = {2, 3}, K[2] = {4, 2}, SIZE[2] = {2, 1};
static const cublasOperation_t TA[2] = {CUBLAS_OP_N, CUBLAS_OP_T}, TB[2] = {CUBLAS_OP_N, CUBLAS_OP_N};

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* 12 floats from tf_val(k, seed): enough for every operand here. */
static float *operand(unsigned seed)
{
    float h[12];
    for (int k = 0; k < 12; k++) h[k] = tf_val((size_t)k, seed);
    return upload(h, sizeof h);
}

static void run(cublasHandle_t h, bool ex)
{
    float *a[PROBLEMS], *b[PROBLEMS], *c[PROBLEMS];
    int lda[2], ldb[2], ldc[2];
    for (int g = 0; g < 2; g++) {
        lda[g] = TA[g] == CUBLAS_OP_N ? M[g] : K[g];
        ldb[g] = K[g];
        ldc[g] = M[g];
    }
    for (int p = 0; p < PROBLEMS; p++) {
        a[p] = operand(10u + (unsigned)p);
        b[p] = operand(20u + (unsigned)p);
        c[p] = operand(30u + (unsigned)p);
    }
    void *da = upload(a, sizeof a), *db = upload(b, sizeof b), *dc = upload(c, sizeof c);
    float alpha[2] = {1.5f, -0.5f}, beta[2] = {0.5f, 2.0f};
    if (ex)
        CKB(cublasGemmGroupedBatchedEx(h, TA, TB, M, N, K, alpha, da, CUDA_R_32F, lda, db, CUDA_R_32F, ldb, beta, dc,
                                       CUDA_R_32F, ldc, 2, SIZE, CUBLAS_COMPUTE_32F));
    else
        CKB(cublasSgemmGroupedBatched(h, TA, TB, M, N, K, alpha, (const float *const *)da, lda,
                                      (const float *const *)db, ldb, beta, (float *const *)dc, ldc, 2, SIZE));
    for (int p = 0; p < PROBLEMS; p++) {
        int g = p < SIZE[0] ? 0 : 1;
        float out[12];
        CK(cudaMemcpy(out, c[p], sizeof(float) * (size_t)(M[g] * N[g]), cudaMemcpyDeviceToHost));
        printf("%s %d", ex ? "ex" : "sgemm", p);
        for (int k = 0; k < M[g] * N[g]; k++) printf(" %.9g", out[k]);
        printf("\n");
        CK(cudaFree(a[p]));
        CK(cudaFree(b[p]));
        CK(cudaFree(c[p]));
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
}

int main(void)
{
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    run(h, false);
    run(h, true);
    CKB(cublasDestroy(h));
    return 0;
}
