// Scaling: does what transfold adds per call grow with what the program
// holds? `scaling N LIVE PENDING KERNELS` first makes LIVE other live
// allocations, PENDING transposes that nothing reads (pending records under
// transfold: each transposes W into a buffer of its own that stays live) and
// launches KERNELS distinct kernels once each (no twins: the launches fail,
// but transfold has seen every name), then times N iterations of
//   cudaMalloc t; t = W^T by geam; Y = X * t; cudaFree t
// so each iteration is one deferred transpose, one fold onto it and one drop
// at the free (fold mode). One timed call is one such iteration.
#include <cuda.h>

#include "bench.h"

static long arg(int argc, char **argv, int i)
{
    long v = argc > i ? atol(argv[i]) : 0;
    return v > 0 ? v : 0;
}

// Kernels that exist only by name: the stand-in hands out a handle for any
// name in a library and fails its launch, as a GPU fails a launch of a
// kernel whose image was never loaded.
//
// The names are built in a static buffer, not on the stack: the stand-in
// compares each new name with every one it holds (strcmp, 50 million
// calls for 10,000 names), and strcmp's instruction count depends on where
// its argument lies within a page. On the stack, that place moves with the
// length of argv ("200" or "1000"), so the setup cost differed between the
// two runs whose difference the bench divides by the loop count (thousands
// of instructions per loop either way). A static buffer lies at the same
// address in both runs, and the setup cancels exactly.
static void see_kernels(long n)
{
    if (n == 0) return;
    static const char image[] = "bench";
    static char name[32];
    CUlibrary lib;
    CKD(cuInit(0));
    CKD(cuLibraryLoadData(&lib, image, NULL, NULL, 0, NULL, NULL, 0));
    for (long i = 0; i < n; i++) {
        snprintf(name, sizeof name, "bench_kernel_%ld", i % 100000000);
        CUkernel k;
        CKD(cuLibraryGetKernel(&k, lib, name));
        float *p = NULL;
        void *params[] = {&p};
        (void)cuLaunchKernel((CUfunction)k, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    }
}

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    long live = arg(argc, argv, 2), pending = arg(argc, argv, 3), kernels = arg(argc, argv, 4);
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float *w = bench_mat(1), *x = bench_mat(2), *y = bench_mat(0);
    for (long i = 0; i < live; i++) {
        void *p;
        CK(cudaMalloc(&p, 256)); // kept for the whole run
    }
    for (long i = 0; i < pending; i++)
        bench_geam_t(h, w, bench_mat(0));
    see_kernels(kernels);
    bench_loop(n, [&] {
        float *t;
        CK(cudaMalloc(&t, S * S * sizeof(float)));
        bench_geam_t(h, w, t);
        bench_sgemm(h, x, t, y);
        CK(cudaFree(t)); // drops the pending transpose: nothing else read t
    });
    CKB(cublasDestroy(h));
    return 0;
}
