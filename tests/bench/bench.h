/* Shared by the microbenchmarks of `make bench` (see run.sh).
 *
 * Each program takes N, runs its loop body once to warm up (first-call costs:
 * module registration, the fold's first heuristic query), then runs the body
 * N times in CHUNKS (nearly) equal chunks, each timed with CLOCK_MONOTONIC, and prints
 * `ns_per_call <ns>`: the cost of one run of the body in the median chunk (a
 * chunk during which another process took the core does not count). One run
 * of the body is one intercepted call unless the program says otherwise.
 * Device work is meant to be free (SIMCUDA_NOOP=1 on the stand-in), so what
 * is left is the host path: the stand-in plus, when preloaded, transfold. */
#ifndef TF_BENCH_H
#define TF_BENCH_H
#include <time.h>

#include "common.h" /* CK, CKB, dev_f32, dev_zero (tests/programs) */

static inline long bench_n(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 0;
    if (n <= 0) {
        fprintf(stderr, "usage: %s N   (N > 0 timed iterations)\n", argv[0]);
        exit(64);
    }
    return n;
}

static inline double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

enum { CHUNKS = 15 };

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

template <class Body> static void bench_loop(long n, Body body)
{
    body();
    CK(cudaDeviceSynchronize());
    double ns[CHUNKS];
    int chunks = 0;
    for (int c = 0; c < CHUNKS; c++) { /* exactly n calls in all, for callgrind */
        long calls = n * (c + 1) / CHUNKS - n * c / CHUNKS;
        if (calls == 0) continue;
        double t0 = now_ns();
        for (long i = 0; i < calls; i++) body();
        CK(cudaDeviceSynchronize());
        ns[chunks++] = (now_ns() - t0) / calls;
    }
    qsort(ns, chunks, sizeof ns[0], cmp_double);
    printf("ns_per_call %.1f\n", ns[chunks / 2]);
}

/* The cuBLAS benchmarks' operands: S x S f32 matrices, ld S, and their
 * scalars. The same shapes in every program keep their figures comparable. */
enum { S = 16 };
static const float one = 1.0f, zero = 0.0f;

/* An S x S matrix on the device: filled from `seed`, or zeroed for seed 0. */
static inline float *bench_mat(unsigned seed)
{
    return seed ? dev_f32(S * S, seed) : (float *)dev_zero(S * S * sizeof(float));
}

/* Y = A * B with no op flags of its own: what a fold rewrites. */
static inline void bench_sgemm(cublasHandle_t h, const float *a, const float *b, float *y)
{
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, S, S, S, &one, a, S, b, S, &zero, y, S));
}

/* Wt = W^T by geam with beta 0: the transpose transfold defers. */
static inline void bench_geam_t(cublasHandle_t h, const float *w, float *wt)
{
    CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, S, S, &one, w, S, &zero, w, S, wt, S));
}

#endif
