// Folded GEMM: one geam transpose Wt = W^T, then N GEMMs reading Wt as B.
// Under transfold (fold mode) the transpose stays pending and every GEMM is
// reissued on W with op T: each timed call is one fold.
#include "bench.h"

enum { S = 16 };

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    const float one = 1.0f, zero = 0.0f;
    float *w = dev_f32(S * S, 1), *x = dev_f32(S * S, 2);
    float *wt = (float *)dev_zero(S * S * sizeof(float)), *y = (float *)dev_zero(S * S * sizeof(float));
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, S, S, &one, w, S, &zero, w, S, wt, S));
    bench_loop(n, [&] { CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one, x, S, wt, S, &zero, y, S)); });
    CK(cudaFree(wt)); // drops the pending transpose (destroying h first would run it)
    CKB(cublasDestroy(h));
    return 0;
}
