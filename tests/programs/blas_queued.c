/* Host-computed cuBLAS calls as stream work (the stand-in runs them on the
 * stream, SIMCUDA_ASYNC): Level-1 updates on a non-blocking stream.
 *
 * Usage: blas_queued [ordered|racy]
 *   ordered  y = 2 x + y (saxpy, x with stride 2; the host alpha is changed
 *            right after the call, which must not matter), y *= 0.5 (sscal,
 *            alpha in device memory), z = y (scopy), swap x <-> z (sswap),
 *            then prints x, y and z; tests/e2e/blas_queued_check.py
 *            recomputes them with numpy
 *   racy     saxpy writes y on one stream while a copy on another reads it,
 *            nothing ordering them: the race detector names both */
#include "common.h"

enum { N = 37 };

static float *upload(size_t n, unsigned seed)
{
    float h[2 * N], *d;
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed);
    CK(cudaMalloc((void **)&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static void show(const char *label, const float *d, size_t n)
{
    float h[2 * N];
    CK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    printf("%s", label);
    for (size_t i = 0; i < n; i++) printf(" %.9g", h[i]);
    printf("\n");
}

static void ordered(cublasHandle_t h)
{
    float *x = upload(2 * N, 1), *y = upload(N, 2), *z = upload(N, 3), *half = upload(1, 0);
    const float half_h = 0.5f;
    CK(cudaMemcpy(half, &half_h, sizeof half_h, cudaMemcpyHostToDevice));
    float alpha = 2.0f;
    CKB(cublasSaxpy(h, N, &alpha, x, 2, y, 1));
    alpha = 100.0f; /* cuBLAS read the host scalar during the call */
    CKB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CKB(cublasSscal(h, N, half, y, 1));
    CKB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    CKB(cublasScopy(h, N, y, 1, z, 1));
    CKB(cublasSswap(h, N, x, 2, z, 1));
    CK(cudaDeviceSynchronize());
    show("x", x, 2 * N);
    show("y", y, N);
    show("z", z, N);
    float *all[] = {x, y, z, half};
    for (int i = 0; i < 4; i++) CK(cudaFree(all[i]));
}

static void racy(cublasHandle_t h)
{
    float *x = upload(N, 1), *y = upload(N, 2), *z = upload(N, 3);
    cudaStream_t other;
    CK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    float alpha = 1.0f;
    CKB(cublasSaxpy(h, N, &alpha, x, 1, y, 1));
    CK(cudaMemcpyAsync(z, y, N * sizeof(float), cudaMemcpyDeviceToDevice, other));
    CK(cudaDeviceSynchronize());
    CK(cudaStreamDestroy(other));
    float *all[] = {x, y, z};
    for (int i = 0; i < 3; i++) CK(cudaFree(all[i]));
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ordered";
    cublasHandle_t h;
    cudaStream_t s;
    CKB(cublasCreate(&h));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CKB(cublasSetStream(h, s));
    if (strcmp(mode, "racy") == 0)
        racy(h);
    else
        ordered(h);
    CK(cudaStreamDestroy(s));
    CKB(cublasDestroy(h));
    return 0;
}
