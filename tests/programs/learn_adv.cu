// Adversaries of learning: kernels that look like transposes to a GEMM but
// must never be trusted, or only while a hidden input agrees. No rules.
// Usage: learn_adv CASE STEPS [FLIP_AT]
//   flag      transposes only while a flag in its source's allocation says
//             so (flag and matrix are two pointers into one buffer); with
//             FLIP_AT the flag turns 0 from that step on (a plain copy then)
//   ptrflag   the same, the flag in a buffer of its own: a third buffer
//   second    a transpose that also writes a second output
//   partial   a transpose of only the first half of the rows
//   undercover  the rows kernel over all rows, launched with too few
//             threads to cover them (tests/e2e/rules/learn.rules describes
//             it as a whole transpose: launch coverage must refuse it)
// Each step (training-loop style, cudaMallocAsync/cudaFreeAsync): W and X
// fresh, Wt from the kernel, Y = X * Wt (cublasSgemm), Y (and the second
// output) printed.
#include "common.h"

enum { R = 24, C = 16, M = 10 };
static const float ONE = 1.0f, ZERO = 0.0f;

__global__ void transpose_if(float *out, const int *flag, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[c * rows + r] = *flag ? in[r * cols + c] : in[c * rows + r];
}

__global__ void transpose_and_double(float *out, float *out2, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[c * rows + r] = in[r * cols + c];
        out2[r * cols + c] = 2 * in[r * cols + c];
    }
}

__global__ void transpose_rows(float *out, const float *in, int rows, int cols, int upto)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < upto && c < cols) out[c * rows + r] = in[r * cols + c];
}

static void *alloc(size_t bytes, cudaStream_t s)
{
    void *p = NULL;
    CK(cudaMallocAsync(&p, bytes, s));
    CK(cudaMemsetAsync(p, 0, bytes, s));
    return p;
}

static void upload(void *d, const void *h, size_t bytes, cudaStream_t s)
{
    CK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
}

static void show(const char *what, int step, const void *d, size_t n, cudaStream_t s)
{
    float *h = (float *)malloc(n * 4);
    CK(cudaMemcpyAsync(h, d, n * 4, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    char label[32];
    snprintf(label, sizeof label, "step %d %s", step, what);
    show_host(label, h, n, 4);
    free(h);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    const char *which = argv[1];
    int steps = atoi(argv[2]), flip_at = argc > 3 ? atoi(argv[3]) : -1;
    cudaStream_t s;
    cublasHandle_t h;
    CK(cudaStreamCreate(&s));
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    dim3 block(16, 16), grid((C + 15) / 16, (R + 15) / 16);
    for (int step = 0; step < steps; step++) {
        float hw[R * C], hx[M * C];
        for (int i = 0; i < R * C; i++) hw[i] = tf_val(i, 1 + step);
        for (int i = 0; i < M * C; i++) hx[i] = tf_val(i, 50 + step);
        int flag = flip_at >= 0 && step >= flip_at ? 0 : 1;
        // the flag, then (16 bytes in) the matrix: one allocation
        char *wbuf = (char *)alloc(16 + sizeof hw, s);
        float *w = (float *)(wbuf + 16), *x = (float *)alloc(sizeof hx, s);
        float *wt = (float *)alloc(sizeof hw, s), *y = (float *)alloc(M * R * 4, s), *out2 = NULL;
        int *fbuf = NULL;
        upload(w, hw, sizeof hw, s);
        upload(wbuf, &flag, sizeof flag, s);
        upload(x, hx, sizeof hx, s);
        if (is(which, "flag")) {
            transpose_if<<<grid, block, 0, s>>>(wt, (const int *)wbuf, w, R, C);
        } else if (is(which, "ptrflag")) {
            fbuf = (int *)alloc(sizeof flag, s);
            upload(fbuf, &flag, sizeof flag, s);
            transpose_if<<<grid, block, 0, s>>>(wt, fbuf, w, R, C);
        } else if (is(which, "second")) {
            out2 = (float *)alloc(sizeof hw, s);
            transpose_and_double<<<grid, block, 0, s>>>(wt, out2, w, R, C);
        } else if (is(which, "partial")) {
            transpose_rows<<<grid, block, 0, s>>>(wt, w, R, C, R / 2);
        } else if (is(which, "undercover")) {
            transpose_rows<<<1, dim3(4, 4), 0, s>>>(wt, w, R, C, R);
        } else {
            return 2;
        }
        CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, R, M, C, &ONE, wt, R, x, C, &ZERO, y, R));
        show("Y", step, y, M * R, s);
        if (out2) show("second", step, out2, R * C, s);
        void *bufs[] = {wt, y, out2, fbuf, wbuf, x};
        for (void *b : bufs)
            if (b) CK(cudaFreeAsync(b, s));
    }
    CK(cudaStreamSynchronize(s));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
