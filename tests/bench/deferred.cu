// Deferred transpose: N iterations of { Wt = W^T by geam; Y = X * Wt }.
// Under transfold (fold mode) each geam becomes a pending record, the GEMM
// folds onto it, and the next iteration's geam overwrites all of Wt, which
// drops the record without running it. One timed call is one such iteration:
// one deferred (and dropped) transpose plus one fold, two intercepted calls.
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
    bench_loop(n, [&] {
        CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, S, S, &one, w, S, &zero, w, S, wt, S));
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one, x, S, wt, S, &zero, y, S));
    });
    CK(cudaFree(wt)); // drops the pending transpose (destroying h first would run it)
    CKB(cublasDestroy(h));
    return 0;
}
