// Hardening cases (issue 10): each is a way a program used to get another
// result, or lose data, with transfold loaded.
// Usage: hardening CASE   (tests/e2e/cases_hardening.sh says what transfold
// must do with each).
//
// W is a 24 x 16 column-major f32 matrix (ld 24), transposed with
// cublasSgeam(T, T) into Wt (16 x 24, ld 16), then read by a GEMM.
#include <dirent.h>
#include <unistd.h>

#include "common.h"
#include "kernels.cuh"

static cublasHandle_t H;
static const float ONE = 1.0f, ZERO = 0.0f;
enum { R = 24, C = 16 };

static float *upload(const float *h, size_t n)
{
    float *d = NULL;
    CK(cudaMalloc(&d, n * sizeof(float)));
    CK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static float *transpose_s(const float *w, float alpha)
{
    float *t = (float *)dev_zero((size_t)C * R * sizeof(float));
    CKB(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &alpha, w, R, &ZERO, w, R, t, C));
    return t;
}

// Y (10 x 24) = X (10 x 16) * Wt.
static void consume_show(const float *x, const float *wt)
{
    float *y = (float *)dev_zero(10 * R * sizeof(float));
    CKB(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &ONE, x, 10, wt, C, &ZERO, y, 10));
    show_dev("Y", y, 10 * R, sizeof(float));
    CK(cudaFree(y));
}

// Scaled transposes whose fold into alpha is not bitwise exact: -1 turns
// the +0 of a cancelling dot product into -0; 2 turns an inf - inf (NaN)
// of the scaled copy into 2 * (big - big) = 0.
static int scale_cases(const char *name)
{
    float w[R * C], x[10 * C];
    // W(r, c) = +-(1 + r % 3), the sign alternating by column; X(i, c) = 1 + i % 3:
    // every dot product is a + -a + a + -a ... = +0.
    for (int i = 0; i < R * C; i++) w[i] = ((i / R) % 2 ? -1.0f : 1.0f) * (float)(1 + (i % R) % 3);
    for (int i = 0; i < 10 * C; i++) x[i] = (float)(1 + (i % 10) % 3);
    float alpha = -1.0f;
    if (is(name, "scale_2_overflow")) {
        for (int i = 0; i < R * C; i++) w[i] = (i / R) % 2 ? -2e38f : 2e38f;
        for (int i = 0; i < 10 * C; i++) x[i] = 1.0f;
        alpha = 2.0f;
    }
    float *dw = upload(w, R * C), *dx = upload(x, 10 * C);
    float *wt = transpose_s(dw, alpha);
    consume_show(dx, wt);
    CK(cudaFree(wt));
    CK(cudaFree(dx));
    CK(cudaFree(dw));
    return 0;
}

// Device pointer mode: a GEMM's (or a plain geam's) alpha lives inside a
// transposed buffer whose transpose is still pending: it is a read of it.
static int devptr_cases(const char *name)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(10 * C, 2), *z = dev_f32(C * R, 3);
    float *wt = transpose_s(w, 1.0f);
    float *zero = (float *)dev_zero(sizeof(float));
    float *y = (float *)dev_zero(10 * R * sizeof(float));
    const float *alpha = wt + 5; // Wt(5, 0) = W(0, 5), a nonzero value
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE));
    if (is(name, "devptr_gemm_alpha"))
        CKB(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, alpha, x, 10, z, C, zero, y, 10));
    else // y (10 x 24) = alpha * x' + 0 * y, as a plain (untransposed) geam
        CKB(cublasSgeam(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, alpha, z, 10, zero, y, 10, y, 10));
    CKB(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST));
    show_dev("Y", y, 10 * R, sizeof(float));
    CK(cudaFree(wt));
    return 0;
}

// cublasGemmEx with a combination cuBLAS does not support (64F compute on
// f32 data): rejected without touching memory, and its 4-byte scalars are
// not the 8 bytes the compute type would suggest.
static int gemmex_invalid(void)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(10 * C, 2);
    float *wt = transpose_s(w, 1.0f);
    float *y = (float *)dev_zero(10 * R * sizeof(float));
    struct { float alpha, beta; } s = { 1.0f, 0.0f };
    STATUS(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 10, R, C, &s.alpha, x, CUDA_R_32F, 10, wt, CUDA_R_32F, C,
                        &s.beta, y, CUDA_R_32F, 10, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    show_dev("Y", y, 10 * R, sizeof(float));
    CK(cudaFree(wt));
    return 0;
}

// A transpose kernel whose one parameter is a packed record: the output
// pointer at byte 1, the input at byte 9, rows and cols at 17 and 21 (the
// way a code generator may pack its arguments). out[c*rows + r] = in[r*cols + c].
struct packed_args { unsigned char b[25]; };

__global__ void transpose_packed(packed_args a)
{
    float *out;
    const float *in;
    int rows, cols;
    memcpy(&out, a.b + 1, 8);
    memcpy(&in, a.b + 9, 8);
    memcpy(&rows, a.b + 17, 4);
    memcpy(&cols, a.b + 21, 4);
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

// W row-major R x C; Wt = W^T by the packed kernel, read by a GEMM (under
// verify mode, replayed into scratch: the output pointer must be found).
static int packed_kernel(void)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(10 * C, 2);
    float *wt = (float *)dev_zero((size_t)C * R * sizeof(float));
    packed_args a;
    int rows = R, cols = C;
    memset(&a, 0, sizeof a);
    memcpy(a.b + 1, &wt, 8);
    memcpy(a.b + 9, &w, 8);
    memcpy(a.b + 17, &rows, 4);
    memcpy(a.b + 21, &cols, 4);
    transpose_packed<<<dim3((C + 7) / 8, (R + 7) / 8), dim3(8, 8)>>>(a);
    CK(cudaGetLastError());
    // As cuBLAS sees it, Wt is an R x C matrix (ld R): Y (10 x R) = X * Wt^T
    float *y = (float *)dev_zero(10 * R * sizeof(float));
    CKB(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_T, 10, R, C, &ONE, x, 10, wt, R, &ZERO, y, 10));
    show_dev("Y", y, 10 * R, sizeof(float));
    CK(cudaFree(wt));
    return 0;
}

// cublasSet/GetMatrix/Vector around a pending transpose Wt of W:
// setget_readback: Wt read back to the host (after a GEMM folded onto it);
// setget_src_write: W rewritten from the host before the GEMM;
// setget_dst_overwrite: all of Wt rewritten from the host (Async), then read.
static int setget_cases(const char *name)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(10 * C, 2);
    float *wt = transpose_s(w, 1.0f);
    float host[R * C];
    for (int i = 0; i < R * C; i++) host[i] = (float)(i % 7) - 3.0f;
    if (is(name, "setget_readback")) {
        consume_show(x, wt);
        CKB(cublasGetMatrix(C, R, sizeof(float), wt, C, host, C));
        show_host("Wt", host, R * C, sizeof(float));
    } else if (is(name, "setget_src_write")) {
        CKB(cublasSetVector(R * C, sizeof(float), host, 1, w, 1));
        consume_show(x, wt);
    } else {
        CKB(cublasSetMatrixAsync(C, R, sizeof(float), host, C, wt, C, 0));
        consume_show(x, wt);
    }
    CK(cudaFree(wt));
    return 0;
}

// A complex transpose (Cgeam, op C: conjugate) read by cublasCgemv.
static int cgemv_case(void)
{
    cuComplex *w = (cuComplex *)dev_fill(TF_C64, R * C, 1), *x = (cuComplex *)dev_fill(TF_C64, R, 2);
    cuComplex *wt = (cuComplex *)dev_zero((size_t)C * R * sizeof(cuComplex)), *y = (cuComplex *)dev_zero(C * sizeof(cuComplex));
    const cuComplex one = {1.0f, 0.0f}, zero = {0.0f, 0.0f};
    CKB(cublasCgeam(H, CUBLAS_OP_C, CUBLAS_OP_C, C, R, &one, w, R, &zero, w, R, wt, C));
    CKB(cublasCgemv(H, CUBLAS_OP_N, C, R, &one, wt, C, x, 1, &zero, y, 1)); // y = W^H x
    show_dev("y", y, C, sizeof(cuComplex));
    CK(cudaFree(wt));
    return 0;
}

// A program that execs another: files transfold opened (log, summary) must
// not be inherited. The child counts its open files named *.log or
// *.summary, then makes a CUDA call of its own.
static int exec_child(const char *self)
{
    void *p = NULL;
    CK(cudaMalloc(&p, 64));
    CK(cudaFree(p));
    fflush(stdout);
    execl(self, self, "list_fds", (char *)NULL);
    printf("exec failed\n");
    return 2;
}

static int list_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    char path[300], target[4096];
    while (d && (e = readdir(d))) {
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t len = readlink(path, target, sizeof target - 1);
        target[len > 0 ? len : 0] = 0;
        size_t tl = strlen(target);
        if ((tl > 4 && !strcmp(target + tl - 4, ".log")) || (tl > 8 && !strcmp(target + tl - 8, ".summary")))
            n++;
    }
    if (d) closedir(d);
    printf("inherited log or summary files: %d\n", n);
    void *p = NULL;
    CK(cudaMalloc(&p, 64));
    CK(cudaFree(p));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    if (is(argv[1], "exec_child")) return exec_child(argv[0]);
    if (is(argv[1], "list_fds")) return list_fds();
    CKB(cublasCreate(&H));
    int rc = -1;
    if (is(argv[1], "scale_neg1") || is(argv[1], "scale_2_overflow"))
        rc = scale_cases(argv[1]);
    else if (is(argv[1], "devptr_gemm_alpha") || is(argv[1], "devptr_geam_alpha"))
        rc = devptr_cases(argv[1]);
    else if (is(argv[1], "gemmex_invalid"))
        rc = gemmex_invalid();
    else if (is(argv[1], "packed_kernel"))
        rc = packed_kernel();
    else if (is(argv[1], "setget_readback") || is(argv[1], "setget_src_write") || is(argv[1], "setget_dst_overwrite"))
        rc = setget_cases(argv[1]);
    else if (is(argv[1], "cgemv"))
        rc = cgemv_case();
    if (rc < 0) return usage(argv[0]);
    CKB(cublasDestroy(H));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
