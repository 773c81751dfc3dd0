// Pass-through GEMM: N small cublasSgemm calls on plain buffers, with no
// transpose pending, so nothing can fold.
#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *a = bench_mat(1), *b = bench_mat(2), *y = bench_mat(0);
    bench_loop(n, [&] { bench_sgemm(h, a, b, y); });
    CKB(cublasDestroy(h));
    return 0;
}
