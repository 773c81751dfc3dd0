// Deferred transpose: N iterations of { Wt = W^T by geam; Y = X * Wt }.
// Under transfold (fold mode) each geam becomes a pending record, the GEMM
// folds onto it, and the next iteration's geam overwrites all of Wt, which
// drops the record without running it. One timed call is one such iteration:
// one deferred (and dropped) transpose plus one fold, two intercepted calls.
#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *w = bench_mat(1), *x = bench_mat(2), *wt = bench_mat(0), *y = bench_mat(0);
    bench_loop(n, [&] {
        bench_geam_t(h, w, wt);
        bench_sgemm(h, x, wt, y);
    });
    CK(cudaFree(wt)); // drops the pending transpose (destroying h first would run it)
    CKB(cublasDestroy(h));
    return 0;
}
