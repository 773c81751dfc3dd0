/* A transpose folded into a GEMM, from a C program that e2e also builds
 * with -fsanitize=address and -fsanitize=thread (cases_hardening.sh): a
 * sanitizer runtime initialising under transfold must not crash. */
#include "common.h"

int main(void)
{
    enum { R = 24, C = 16 };
    cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasCreate(&h));
    float *w = dev_f32(R * C, 1), *x = dev_f32(10 * C, 2);
    float *wt = (float *)dev_zero(C * R * sizeof(float)), *y = (float *)dev_zero(10 * R * sizeof(float));
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &one, w, R, &zero, w, R, wt, C));
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &one, x, 10, wt, C, &zero, y, 10));
    show_dev("Y", y, 10 * R, sizeof(float));
    CK(cudaFree(wt));
    CK(cudaFree(w));
    CK(cudaFree(x));
    CK(cudaFree(y));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
