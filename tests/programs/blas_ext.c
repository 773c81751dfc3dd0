/* cuBLAS extensions beyond BLAS the way NVIDIA's Extensions and Emulation
 * samples use them: the Gauss complex GEMMs (cublasCgemm3m, Zgemm3m,
 * Cgemm3m strided and pointer-array batched, Cgemm3mEx), the packed
 * conversions (tpttr, trttp) and the fixed-point emulation controls.
 *
 * Usage: blas_ext
 * Prints each result buffer ("<what> <numbers...>", complex as two parts)
 * and the emulation settings read back; tests/e2e/blas_ext_check.py
 * recomputes every buffer with numpy. */
#include <stdbool.h>

#include "common.h"

enum { M = 3, N = 2, K = 4, B = 2, P = 4 };

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* n doubles' worth of parts from tf_val(k, seed) as float or double. */
static void *parts(int n, unsigned seed, bool dbl)
{
    double hd[64];
    float hf[64];
    for (int k = 0; k < n; k++) hd[k] = hf[k] = tf_val((size_t)k, seed);
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

static void gemm3m(cublasHandle_t h)
{
    cuComplex ca = {0.5f, -1.0f}, cb = {1.5f, 0.25f};
    cuDoubleComplex za = {-1.0, 0.5}, zb = {0.25, -1.5};
    void *a = parts(2 * M * K, 1, false), *b = parts(2 * K * N, 2, false), *c = parts(2 * M * N, 3, false);
    CKB(cublasCgemm3m(h, CUBLAS_OP_N, CUBLAS_OP_T, M, N, K, &ca, a, M, b, N, &cb, c, M));
    show("cgemm3m", c, 2 * M * N, false);
    c = parts(2 * M * N, 3, false);
    CKB(cublasCgemm3mEx(h, CUBLAS_OP_N, CUBLAS_OP_T, M, N, K, &ca, a, CUDA_C_32F, M, b, CUDA_C_32F, N, &cb, c,
                        CUDA_C_32F, M));
    show("cgemm3mex", c, 2 * M * N, false);
    void *sa = parts(2 * M * K * B, 4, false), *sb = parts(2 * K * N * B, 5, false), *sc = parts(2 * M * N * B, 6, false);
    CKB(cublasCgemm3mStridedBatched(h, CUBLAS_OP_C, CUBLAS_OP_N, M, N, K, &ca, sa, K, K * M, sb, K, K * N, &cb, sc,
                                    M, M * N, B));
    show("cgemm3m_strided", sc, 2 * M * N * B, false);
    void *za_ = parts(2 * K * M, 4, true), *zb_ = parts(2 * K * N, 5, true), *zc = parts(2 * M * N, 6, true);
    CKB(cublasZgemm3m(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &za, za_, K, zb_, K, &zb, zc, M));
    show("zgemm3m", zc, 2 * M * N, true);
    void *c2 = parts(2 * M * N, 7, false);
    const void *ha[1] = {a}, *hb[1] = {b};
    void *hc[1] = {c2};
    void *da = upload(ha, sizeof ha), *db = upload(hb, sizeof hb), *dc = upload(hc, sizeof hc);
    CKB(cublasCgemm3mBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, M, N, K, &ca, da, M, db, N, &cb, dc, M, 1));
    show("cgemm3m_batched", c2, 2 * M * N, false);
    void *all[] = {a, b, sa, sb, za_, zb_, da, db, dc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

static void packed(cublasHandle_t h)
{
    void *ap = parts(P * (P + 1) / 2, 8, false), *full = parts(P * 5, 9, false);
    CKB(cublasStpttr(h, CUBLAS_FILL_MODE_UPPER, P, ap, full, 5));
    show("stpttr", full, P * 5, false);
    void *zfull = parts(2 * P * P, 10, true), *zap = parts(2 * P * (P + 1) / 2, 11, true);
    CKB(cublasZtrttp(h, CUBLAS_FILL_MODE_LOWER, P, zfull, P, zap));
    show("ztrttp", zap, 2 * P * (P + 1) / 2, true);
    CK(cudaFree(ap));
    CK(cudaFree(zfull));
}

static void emulation(cublasHandle_t h)
{
    cudaEmulationMantissaControl control;
    cudaEmulationSpecialValuesSupport special;
    int max_bits = -1, offset = -1, *count = &offset;
    CKB(cublasGetFixedPointEmulationMantissaControl(h, &control));
    CKB(cublasGetEmulationSpecialValuesSupport(h, &special));
    printf("emulation defaults control %d special 0x%x\n", (int)control, (unsigned)special);
    CKB(cublasSetFixedPointEmulationMantissaControl(h, CUDA_EMULATION_MANTISSA_CONTROL_FIXED));
    CKB(cublasSetFixedPointEmulationMaxMantissaBitCount(h, 79));
    CKB(cublasSetFixedPointEmulationMantissaBitOffset(h, 3));
    CKB(cublasSetFixedPointEmulationMantissaBitCountPointer(h, NULL));
    CKB(cublasGetFixedPointEmulationMantissaControl(h, &control));
    CKB(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &max_bits));
    CKB(cublasGetFixedPointEmulationMantissaBitOffset(h, &offset));
    CKB(cublasGetFixedPointEmulationMantissaBitCountPointer(h, &count));
    printf("emulation set control %d max %d offset %d pointer %s\n", (int)control, max_bits, offset,
           count ? "set" : "null");
    STATUS(cublasSetFixedPointEmulationMaxMantissaBitCount(h, -1));
}

int main(void)
{
    cublasHandle_t h;
    CKB(cublasCreate(&h));
    gemm3m(h);
    packed(h);
    emulation(h);
    CKB(cublasDestroy(h));
    return 0;
}
