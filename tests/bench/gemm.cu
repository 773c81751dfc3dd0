// Pass-through GEMM: N small cublasSgemm calls on plain buffers, with no
// transpose pending, so nothing can fold.
#include "bench.h"

enum { S = 16 };

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    const float one = 1.0f, zero = 0.0f;
    float *a = dev_f32(S * S, 1), *b = dev_f32(S * S, 2), *y = (float *)dev_zero(S * S * sizeof(float));
    bench_loop(n, [&] { CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one, a, S, b, S, &zero, y, S)); });
    CKB(cublasDestroy(h));
    return 0;
}
