// Deferred-GEMM output fold ((AB)^T = B^T A^T), output folding on: N
// iterations of { Y = A * B; Yt = Y^T by geam; Z = C * Yt }. Under transfold
// (fold mode) the first GEMM is deferred, the geam of its output becomes the
// GEMM itself writing Yt with operands swapped (the geam never runs), and the
// second GEMM, reading Yt, runs it first; the second GEMM is deferred in turn
// and dropped when the next iteration's writes Z again. One timed call is one
// iteration: three intercepted calls, one output fold.
#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *a = bench_mat(1), *b = bench_mat(2), *c = bench_mat(3), *y = bench_mat(0), *yt = bench_mat(0),
          *z = bench_mat(0);
    bench_loop(n, [&] {
        bench_sgemm(h, a, b, y);
        bench_geam_t(h, y, yt);
        bench_sgemm(h, c, yt, z);
    });
    CK(cudaFree(z));
    CK(cudaFree(yt));
    CK(cudaFree(y));
    CKB(cublasDestroy(h));
    return 0;
}
