// Folded GEMM: one geam transpose Wt = W^T, then N GEMMs reading Wt as B.
// Under transfold (fold mode) the transpose stays pending and every GEMM is
// reissued on W with op T: each timed call is one fold.
#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *w = bench_mat(1), *x = bench_mat(2), *wt = bench_mat(0), *y = bench_mat(0);
    bench_geam_t(h, w, wt);
    bench_loop(n, [&] { bench_sgemm(h, x, wt, y); });
    CK(cudaFree(wt)); // drops the pending transpose (destroying h first would run it)
    CKB(cublasDestroy(h));
    return 0;
}
