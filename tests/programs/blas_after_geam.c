/* A transpose made by cublasSgeam and then read by cuBLAS calls transfold
 * does not fold (Level-1 saxpy, Level-3 syrk): they must see the transpose's
 * result. On a GPU their kernels reach the driver, where transfold runs the
 * deferred transpose first; the stand-in launches a kernel for them the
 * same way (tests/sim/cublas/access.c).
 *
 * Usage: blas_after_geam
 * Prints y = 2 Wt + y (as a vector of 24) and C = Wt Wt^T (lower, 4 x 4). */
#include "common.h"

enum { R = 6, C = 4 };

int main(void)
{
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *w = dev_fill(TF_F32, R * C, 1), *wt, *y = dev_fill(TF_F32, R * C, 2), *c = dev_fill(TF_F32, C * C, 3);
    CK(cudaMalloc((void **)&wt, sizeof(float) * R * C));
    float one = 1.0f, zero = 0.0f, two = 2.0f;
    /* Wt (C x R) = W^T */
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, C, R, &one, w, R, &zero, wt, C, wt, C));
    CKB(cublasSaxpy(h, R * C, &two, wt, 1, y, 1));
    CKB(cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, C, R, &one, wt, C, &zero, c, C));
    show_dev("y", y, R * C, sizeof(float));
    show_dev("C", c, C * C, sizeof(float));
    CK(cudaFree(w));
    CK(cudaFree(wt));
    CK(cudaFree(y));
    CK(cudaFree(c));
    CKB(cublasDestroy(h));
    return 0;
}
