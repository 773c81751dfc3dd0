// Real-typed geam transposes in front of the cuBLAS GEMM family.
// Usage: geam CASE   (cases listed in main; tests/e2e/cases.sh says what
// transfold must do with each).
//
// W is a 24 x 16 column-major f32 matrix (ld 24); transposes are made the way
// ONNX Runtime makes them: cublasSgeam(T, T, alpha, W, beta = 0, W) into
// Wt (16 x 24, ld 16 unless said otherwise).
#include "common.h"
#include "kernels.cuh"

#include <math.h>

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { R = 24, C = 16 };

static float *transpose_s(const float *w, float alpha, int ldc)
{
    float *t = (float *)dev_zero((size_t)ldc * R * sizeof(float));
    CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &alpha, w, R, &ZERO, w, R, t, ldc));
    return t;
}

// Y (m x n, dense) = op(A) * op(B).
static float *sgemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                    const float *a, int lda, const float *b, int ldb)
{
    float *y = (float *)dev_zero((size_t)m * n * sizeof(float));
    CKB(cublasSgemm(H, ta, tb, m, n, k, &ONE, a, lda, b, ldb, &ZERO, y, m));
    return y;
}

static void show(const char *label, const float *d, size_t n) { show_dev(label, d, n, sizeof(float)); }

// The common consumer: Y1 (10 x 24) = X1 (10 x 16) * Wt, Wt as operand B, op N.
static float *consume_b(const float *wt)
{
    float *x1 = dev_f32(10 * C, 2);
    float *y = sgemm(CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, x1, 10, wt, C);
    CK(cudaFree(x1));
    return y;
}

static int real_cases(const char *name, float *w)
{
    if (is(name, "two_gemms")) { // read by two GEMMs (as B, then as A), then freed
        float *wt = transpose_s(w, 1.0f, C);
        float *y1 = consume_b(wt);
        float *z = dev_f32(R * 6, 3);
        float *y2 = sgemm(CUBLAS_OP_N, CUBLAS_OP_N, C, 6, R, wt, C, z, R);
        CK(cudaFree(wt));
        show("Y1", y1, 10 * R);
        show("Y2", y2, C * 6);
    } else if (is(name, "readback")) { // GEMM, then the transposed buffer is copied to the host
        float *wt = transpose_s(w, 1.0f, C);
        float *y1 = consume_b(wt);
        show("Wt", wt, C * R);
        show("Y1", y1, 10 * R);
        CK(cudaFree(wt));
    } else if (is(name, "src_overwrite")) { // W rewritten between transpose and GEMM
        float *w2 = dev_f32(R * C, 9);
        float *wt = transpose_s(w, 1.0f, C);
        CK(cudaMemcpy(w, w2, R * C * sizeof(float), cudaMemcpyDeviceToDevice));
        float *y1 = consume_b(wt);
        CK(cudaFree(wt));
        show("Y1", y1, 10 * R);
    } else if (is(name, "arena") || is(name, "arena_partial")) {
        // One allocation holds everything, as PyTorch's caching allocator
        // carves tensors out of one segment: Wt at 4 KiB, a neighbour at
        // 8 KiB. Copies and sets of the neighbour touch other bytes of the
        // same allocation and leave the transpose pending; Wt's bytes are
        // then handed to a "new tensor": written whole (arena: dropped, never
        // run) or in part (arena_partial: run first, its rest is still Wt).
        char *arena = (char *)dev_zero(64 << 10);
        float *wt = (float *)(arena + (4 << 10)), *nb = (float *)(arena + (8 << 10));
        float alpha = 1.0f;
        CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &alpha, w, R, &ZERO, w, R, wt, C));
        float host[C * R];
        for (int i = 0; i < C * R; i++)
            host[i] = (float)i;
        CK(cudaMemset(nb, 0, sizeof host));
        CK(cudaMemcpy(nb, host, sizeof host, cudaMemcpyHostToDevice));
        float *y1 = consume_b(wt);
        size_t part = is(name, "arena") ? sizeof host : sizeof host / 2;
        CK(cudaMemcpy(wt, nb, part, cudaMemcpyDeviceToDevice));
        show("Y1", y1, 10 * R);
        show("Wt", wt, C * R);
        CK(cudaFree(arena));
    } else if (is(name, "subblock")) { // GEMM reads Wt[2:10, 3:15]
        float *wt = transpose_s(w, 1.0f, C);
        float *x = dev_f32(6 * 8, 4);
        float *y = sgemm(CUBLAS_OP_N, CUBLAS_OP_N, 6, 12, 8, x, 6, wt + 2 + 3 * C, C);
        CK(cudaFree(wt));
        show("Y", y, 6 * 12);
    } else if (is(name, "scale_2") || is(name, "scale_0.5") || is(name, "scale_0.3")) {
        float *wt = transpose_s(w, (float)atof(name + 6), C);
        float *y1 = consume_b(wt);
        CK(cudaFree(wt));
        show("Y1", y1, 10 * R);
    } else if (is(name, "ld_mismatch")) { // Wt read as an 8 x 48 matrix with ld 8
        float *wt = transpose_s(w, 1.0f, C);
        float *x = dev_f32(10 * 8, 5);
        float *y = sgemm(CUBLAS_OP_N, CUBLAS_OP_N, 10, 48, 8, x, 10, wt, 8);
        CK(cudaFree(wt));
        show("Y", y, 10 * 48);
    } else if (is(name, "padded_ld")) { // Wt with ldc 20 > 16, GEMM with the same ld
        float *wt = transpose_s(w, 1.0f, 20);
        float *x1 = dev_f32(10 * C, 2);
        float *y = sgemm(CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, x1, 10, wt, 20);
        CK(cudaFree(wt));
        show("Y", y, 10 * R);
    } else if (is(name, "devptr")) { // alpha and beta of the geam in device memory
        float *wt = (float *)dev_zero(C * R * sizeof(float));
        float *ab = (float *)dev_zero(2 * sizeof(float));
        CK(cudaMemcpy(ab, &ONE, sizeof(float), cudaMemcpyHostToDevice));
        CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
        CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, ab, w, R, ab + 1, w, R, wt, C));
        CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
        float *y1 = consume_b(wt);
        CK(cudaFree(wt));
        show("Y1", y1, 10 * R);
    } else if (is(name, "never_freed")) { // neither Wt nor the handle is released
        float *wt = transpose_s(w, 1.0f, C);
        show("Y1", consume_b(wt), 10 * R);
        return 1;
    } else if (is(name, "handle_destroyed")) { // handle destroyed while Wt is still alive
        float *wt = transpose_s(w, 1.0f, C);
        show("Y1", consume_b(wt), 10 * R);
        CKB(cublasDestroy(H));
        show("Wt", wt, C * R);
        return 1;
    } else if (is(name, "kernel_unrelated") || is(name, "kernel_writes_src")) {
        float *u = is(name, "kernel_unrelated") ? dev_f32(100, 6) : w;
        int n = is(name, "kernel_unrelated") ? 100 : R * C;
        float *wt = transpose_s(w, 1.0f, C);
        scale_f32<<<(n + 63) / 64, 64>>>(u, n, 2.0f);
        CK(cudaGetLastError());
        float *y1 = consume_b(wt);
        CK(cudaFree(wt));
        show("Y1", y1, 10 * R);
        show("U", u, n);
    } else if (is(name, "batched_shared")) { // every batch reads the same Wt (stride 0)
        float *wt = transpose_s(w, 1.0f, C);
        float *x = dev_f32(3 * 10 * C, 7);
        float *y = (float *)dev_zero(3 * 10 * R * sizeof(float));
        CKB(cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &ONE, x, 10, 10 * C, wt, C, 0,
                                      &ZERO, y, 10, 10 * R, 3));
        CK(cudaFree(wt));
        show("Y", y, 3 * 10 * R);
    } else if (is(name, "batched_stacked")) { // Wt as 3 stacked 16 x 8 matrices
        float *wt = transpose_s(w, 1.0f, C);
        float *x = dev_f32(3 * 10 * C, 7);
        float *y = (float *)dev_zero(3 * 10 * 8 * sizeof(float));
        CKB(cublasGemmStridedBatchedEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, 8, C, &ONE, x, CUDA_R_32F, 10, 10 * C,
                                       wt, CUDA_R_32F, C, C * 8, &ZERO, y, CUDA_R_32F, 10, 10 * 8, 3,
                                       CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        CK(cudaFree(wt));
        show("Y", y, 3 * 10 * 8);
    } else if (is(name, "gemmex")) { // Y (24 x 6) = Wt^T * Z through cublasGemmEx, Wt as A op T
        float *wt = transpose_s(w, 1.0f, C);
        float *z = dev_f32(C * 6, 8);
        float *y = (float *)dev_zero(R * 6 * sizeof(float));
        CKB(cublasGemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, R, 6, C, &ONE, wt, CUDA_R_32F, C, z, CUDA_R_32F, C, &ZERO,
                         y, CUDA_R_32F, R, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        CK(cudaFree(wt));
        show("Y", y, R * 6);
    } else if (is(name, "sgemmex")) { // the same through cublasSgemmEx
        float *wt = transpose_s(w, 1.0f, C);
        float *z = dev_f32(C * 6, 8);
        float *y = (float *)dev_zero(R * 6 * sizeof(float));
        CKB(cublasSgemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, R, 6, C, &ONE, wt, CUDA_R_32F, C, z, CUDA_R_32F, C, &ZERO,
                          y, CUDA_R_32F, R));
        CK(cudaFree(wt));
        show("Y", y, R * 6);
    } else if (is(name, "sgemv")) { // y (16) = Wt * x
        float *wt = transpose_s(w, 1.0f, C);
        float *x = dev_f32(R, 8);
        float *y = (float *)dev_zero(C * sizeof(float));
        CKB(cublasSgemv(H, CUBLAS_OP_N, C, R, &ONE, wt, C, x, 1, &ZERO, y, 1));
        CK(cudaFree(wt));
        show("y", y, C);
    } else if (is(name, "s64")) { // the _64 forms of producer and consumer
        float *wt = (float *)dev_zero(C * R * sizeof(float));
        CKB(cublasSgeam_64(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &ONE, w, R, &ZERO, w, R, wt, C));
        float *x1 = dev_f32(10 * C, 2);
        float *y = (float *)dev_zero(10 * R * sizeof(float));
        CKB(cublasSgemm_64(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &ONE, x1, 10, wt, C, &ZERO, y, 10));
        CK(cudaFree(wt));
        show("Y", y, 10 * R);
    } else if (is(name, "signed_zero")) { // W's zeros are -0; Wt read by a GEMM, then copied back
        float *h = (float *)malloc(R * C * sizeof(float));
        CK(cudaMemcpy(h, w, R * C * sizeof(float), cudaMemcpyDeviceToHost));
        int neg = 0;
        for (int i = 0; i < R * C; i++)
            if (h[i] == 0.0f) {
                h[i] = -0.0f;
                neg++;
            }
        CK(cudaMemcpy(w, h, R * C * sizeof(float), cudaMemcpyHostToDevice));
        float *wt = transpose_s(w, 1.0f, C);
        float *y1 = consume_b(wt);
        CK(cudaMemcpy(h, wt, R * C * sizeof(float), cudaMemcpyDeviceToHost));
        int kept = 0;
        for (int i = 0; i < R * C; i++)
            kept += h[i] == 0.0f && signbit(h[i]);
        printf("negative zeros: W %d, Wt %d\n", neg, kept);
        show("Y1", y1, 10 * R);
        free(h);
        CK(cudaFree(wt));
    } else if (is(name, "seed_f32")) { // the seed: t = W^T (W[N,K] row-major); Y = X[M,K] * t
        enum { M = 32, N = 64, K = 96 };
        float *wn = dev_f32(N * K, 11), *x = dev_f32(M * K, 12);
        float *t = (float *)dev_zero(N * K * sizeof(float)), *y = (float *)dev_zero(M * N * sizeof(float));
        CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, N, K, &ONE, wn, K, &ZERO, wn, K, t, N));
        CKB(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &ONE, t, CUDA_R_32F, N, x, CUDA_R_32F, K, &ZERO,
                         y, CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        CK(cudaFree(t));
        show("Y", y, M * N);
    } else {
        return -1;
    }
    return 0;
}

static int double_cases(const char *name)
{
    const double one = 1.0, zero = 0.0;
    double *w = (double *)dev_fill(TF_F64, R * C, 1);
    double *wt = (double *)dev_zero(C * R * sizeof(double));
    CKB(cublasDgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &one, w, R, &zero, w, R, wt, C));
    if (is(name, "dgemm")) { // Wt as B (op N) and as A (op T)
        double *x = (double *)dev_fill(TF_F64, 10 * C, 2), *z = (double *)dev_fill(TF_F64, C * 6, 3);
        double *y1 = (double *)dev_zero(10 * R * sizeof(double)), *y2 = (double *)dev_zero(R * 6 * sizeof(double));
        CKB(cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &one, x, 10, wt, C, &zero, y1, 10));
        CKB(cublasDgemm(H, CUBLAS_OP_T, CUBLAS_OP_N, R, 6, C, &one, wt, C, z, C, &zero, y2, R));
        CK(cudaFree(wt));
        show_dev("Y1", y1, 10 * R, sizeof(double));
        show_dev("Y2", y2, R * 6, sizeof(double));
    } else { // dgemv: y (24) = Wt^T * x
        double *x = (double *)dev_fill(TF_F64, C, 4), *y = (double *)dev_zero(R * sizeof(double));
        CKB(cublasDgemv(H, CUBLAS_OP_T, C, R, &one, wt, C, x, 1, &zero, y, 1));
        CK(cudaFree(wt));
        show_dev("y", y, R, sizeof(double));
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    CKB(cublasCreate(&H));
    int rc;
    if (is(argv[1], "dgemm") || is(argv[1], "dgemv")) {
        rc = double_cases(argv[1]);
    } else {
        float *w = dev_f32(R * C, 1);
        rc = real_cases(argv[1], w);
        if (rc == 1) { // the case keeps its buffers and handle on purpose
            printf("done\n");
            return 0;
        }
        CK(cudaFree(w));
    }
    if (rc < 0) return usage(argv[0]);
    CKB(cublasDestroy(H));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
