// A training-step loop whose transposes come from an ATen-style strided copy
// kernel (learn_copy.cuh), as PyTorch's w.t().contiguous() makes them, with
// no rule: transfold must learn them. The same kernel also makes a plain copy
// and a non-transpose permutation of the same shape, each read by a GEMM
// too: those are never deferred.
// Usage: learn_aten STEPS
// Each step: W (R x C row-major) and X fresh (cudaMallocAsync), then with
// the copy kernel P = W, Q = W with its two column halves swapped, Wt = W^T;
// then Y1 = X * Wt, Y2 = X * P^T, Y3 = X * Q (cublasSgemm)
// and everything freed with cudaFreeAsync.
#include "common.h"
#include "learn_copy.cuh"

enum { R = 24, C = 16, M = 10 };
static const float ONE = 1.0f, ZERO = 0.0f;

static void *alloc(size_t bytes, cudaStream_t s)
{
    void *p = NULL;
    CK(cudaMallocAsync(&p, bytes, s));
    return p;
}

static void upload(void *d, size_t n, unsigned seed, cudaStream_t s)
{
    float *h = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed);
    CK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    free(h);
}

static void copy(void *out, const void *in, const int64_t *sizes, const int64_t *so, const int64_t *si, int nd,
                 cudaStream_t s)
{
    copy_closure c;
    memset(&c, 0, sizeof c);
    c.data[0] = (char *)out;
    c.data[1] = (char *)in;
    c.ndim = nd;
    for (int d = 0; d < nd; d++) c.sizes[d] = sizes[d], c.strides[0][d] = so[d], c.strides[1][d] = si[d];
    elementwise_copy<<<(R * C + 127) / 128, 128, 0, s>>>(R * C, c);
}

// Row-major Y[M, R] = X[M, C] * A[C, R]: A col-major R x C, ld R.
static void gemm(cublasHandle_t h, const float *a, const float *x, float *y)
{
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, R, M, C, &ONE, a, R, x, C, &ZERO, y, R));
}

static void show_y(const char *label, int step, const float *y, cudaStream_t s)
{
    float h[M * R];
    CK(cudaMemcpyAsync(h, y, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    char name[32];
    snprintf(name, sizeof name, "step %d %s", step, label);
    show_host(name, h, M * R, 4);
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 6;
    cudaStream_t s;
    cublasHandle_t h;
    CK(cudaStreamCreate(&s));
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    const int64_t F = sizeof(float);
    for (int step = 0; step < steps; step++) {
        float *w = (float *)alloc(R * C * F, s), *x = (float *)alloc(M * C * F, s);
        float *wt = (float *)alloc(R * C * F, s), *p = (float *)alloc(R * C * F, s), *q = (float *)alloc(R * C * F, s);
        float *y1 = (float *)alloc(M * R * F, s), *y2 = (float *)alloc(M * R * F, s), *y3 = (float *)alloc(M * R * F, s);
        upload(w, R * C, 1 + step, s);
        upload(x, M * C, 100 + step, s);
        // P = W, iterated as (r, c)
        const int64_t ps[2] = {R, C}, pso[2] = {C * F, F};
        copy(p, w, ps, pso, pso, 2, s);
        // Q[r][h][c'] = W[r][1-h][c']: same shape, a permutation, not a transpose
        const int64_t qs[3] = {R, 2, C / 2}, qso[3] = {C * F, C / 2 * F, F}, qsi[3] = {C * F, -C / 2 * F, F};
        copy(q, (const char *)w + C / 2 * F, qs, qso, qsi, 3, s);
        // Wt[c][r] = W[r][c]: iterate Wt's (c, r)
        const int64_t ts[2] = {C, R}, tso[2] = {R * F, F}, tsi[2] = {F, C * F};
        copy(wt, w, ts, tso, tsi, 2, s);
        gemm(h, wt, x, y1);
        CKB(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, R, M, C, &ONE, p, C, x, C, &ZERO, y2, R));
        gemm(h, q, x, y3);
        show_y("Y1", step, y1, s);
        show_y("Y2", step, y2, s);
        show_y("Y3", step, y3, s);
        float *bufs[] = {wt, p, q, y1, y2, y3, w, x}; // the transpose dies before its source
        for (float *b : bufs) CK(cudaFreeAsync(b, s));
    }
    CK(cudaStreamSynchronize(s));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
