/* cuBLAS's own Level-3 extensions the way its samples use them: syrkx
 * (S upper N, Z lower T), herkx (C upper C) and the pointer-array
 * trsmBatched (D, two batches, left upper N non-unit), leading dimensions
 * larger than the rows.
 *
 * Usage: blas3x
 * Prints each output buffer ("<what> <numbers...>", complex as two parts);
 * tests/e2e/blas3x_check.py recomputes them with numpy. */
#include <stdbool.h>

#include "common.h"

enum { N = 4, K = 3, LD = 5 };

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* n reals (float or double) from tf_val(k, seed); `diag` adds 3 to the
 * diagonal of an LD x N real matrix (trsm's triangle). */
static void *parts(int n, unsigned seed, bool dbl, bool diag)
{
    double hd[64];
    float hf[64];
    for (int k = 0; k < n; k++) hd[k] = hf[k] = tf_val((size_t)k, seed) + (diag && k % (LD + 1) == 0 ? 3 : 0);
    return dbl ? upload(hd, sizeof(double) * (size_t)n) : upload(hf, sizeof(float) * (size_t)n);
}

static void show(const char *what, void *d, int n, bool dbl)
{
    double hd[64];
    float hf[64];
    CK(cudaMemcpy(dbl ? (void *)hd : (void *)hf, d, (dbl ? 8 : 4) * (size_t)n, cudaMemcpyDeviceToHost));
    printf("%s", what);
    for (int k = 0; k < n; k++) printf(" %.17g", dbl ? hd[k] : (double)hf[k]);
    printf("\n");
    CK(cudaFree(d));
}

int main(void)
{
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    float sa = 1.5f, sb = -0.5f;
    cuComplex ca = {0.5f, -1.0f};
    cuDoubleComplex za = {-1.0, 0.5}, zb = {0.25, -1.5};
    void *a = parts(LD * K, 1, false, false), *b = parts(LD * K, 2, false, false), *c = parts(N * N, 3, false, false);
    CKB(cublasSsyrkx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, N, K, &sa, a, LD, b, LD, &sb, c, N));
    show("ssyrkx", c, N * N, false);
    void *za_ = parts(2 * LD * N, 4, true, false), *zb_ = parts(2 * LD * N, 5, true, false);
    void *zc = parts(2 * N * N, 6, true, false);
    CKB(cublasZsyrkx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, N, K, &za, za_, LD, zb_, LD, &zb, zc, N));
    show("zsyrkx", zc, 2 * N * N, true);
    void *ca_ = parts(2 * LD * N, 7, false, false), *cb_ = parts(2 * LD * N, 8, false, false);
    void *cc = parts(2 * N * N, 9, false, false);
    CKB(cublasCherkx(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, N, K, &ca, ca_, LD, cb_, LD, &sb, cc, N));
    show("cherkx", cc, 2 * N * N, false);
    double alpha = 2.0;
    void *t[2] = {parts(LD * N, 10, true, true), parts(LD * N, 11, true, true)};
    void *x[2] = {parts(LD * K, 12, true, false), parts(LD * K, 13, true, false)};
    void *dt = upload(t, sizeof t), *dx = upload(x, sizeof x);
    CKB(cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, N, K,
                           &alpha, dt, LD, dx, LD, 2));
    show("dtrsm_batched0", x[0], LD * K, true);
    show("dtrsm_batched1", x[1], LD * K, true);
    void *all[] = {a, b, za_, zb_, ca_, cb_, t[0], t[1], dt, dx};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
    CKB(cublasDestroy(h));
    return 0;
}
