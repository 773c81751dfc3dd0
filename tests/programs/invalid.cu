// Invalid arguments: every returned status is printed, so a run under
// transfold must print exactly what it prints without it. Nothing here may
// crash real CUDA or cuBLAS either.
// Usage: invalid idle     (no pending transpose while the errors happen)
//        invalid pending  (a geam transpose is pending; the bad calls name it)
#include "common.h"

int main(int argc, char **argv)
{
    if (argc < 2 || (!is(argv[1], "idle") && !is(argv[1], "pending"))) return usage(argv[0]);
    const float one = 1.0f, zero = 0.0f;
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *w = dev_f32(24 * 16, 1), *x = dev_f32(10 * 16, 2), *y = (float *)dev_zero(10 * 24 * 4);
    float *wt = (float *)dev_zero(16 * 24 * 4);
    if (is(argv[1], "pending")) CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, 16, 24, &one, w, 24, &zero, w, 24, wt, 16));

    // cuBLAS: each must fail the way cuBLAS documents, touching nothing.
    STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 24, 16, &one, x, 10, wt, 16, &zero, y, 10));
    STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, wt, 8, &zero, y, 10));
    STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 4, wt, 16, &zero, y, 10));
    STATUS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, wt, 16, &zero, y, 4));
    STATUS(cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, wt, 16, &zero, y, 10));
    STATUS(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, wt, 16, &zero, y, 10));
    STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, CUDA_R_32F, 10, wt, CUDA_R_32F, 16, &zero,
                        y, CUDA_R_32F, 10, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    STATUS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, 0, wt, 16, 0, &zero, y,
                                     10, 0, -2));
    STATUS(cublasSgemv(h, CUBLAS_OP_N, 16, 24, &one, wt, 8, x, 1, &zero, y, 1));
    STATUS(cublasSgemv(h, CUBLAS_OP_N, 16, 24, &one, wt, 16, x, 0, &zero, y, 1));
    STATUS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, 16, 24, &one, w, 8, &zero, w, 24, y, 16));
    STATUS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, 16, 24, &one, w, 24, &zero, w, 24, y, 4));
    STATUS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, -16, 24, &one, w, 24, &zero, w, 24, y, 16));

    // Runtime: the error comes back, then cudaGetLastError reports and clears it.
    STATUS(cudaMemcpy(y, x, 16, (cudaMemcpyKind)42));
    STATUS(cudaGetLastError());
    STATUS(cudaGetLastError());
    STATUS(cudaMemset(NULL, 0, 16));
    STATUS(cudaGetLastError());
    int host_word = 0;
    STATUS(cudaFree(&host_word));
    STATUS(cudaGetLastError());

    // With all that behind, the good path still computes the right thing.
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, 24, 16, &one, x, 10, wt, 16, &zero, y, 10));
    CK(cudaFree(wt));
    show_dev("Y", y, 10 * 24, 4);
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
