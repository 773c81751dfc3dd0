// The seed's shapes, timed with CUDA events: bf16 Y = X[768,13824] * W^T with
// W[5120,13824], where W^T is materialized before the GEMM
//   kernel: by a transpose kernel (transpose_bf16, recognized by a rule)
//   lt:     by cublasLtMatrixTransform (TRANSA = T)
//   gemm:   no transpose, the GEMM reads W with op T (what folding produces)
// Each variant runs `iters` times after one warm-up; the transposed buffer is
// rewritten every iteration (which drops the previous pending transpose).
//
// Usage: seed_bench [--div D] [--iters N] [kernel|lt|gemm ...]
//   --div D divides every shape by D (the stand-in runs it with --div 16).
// Prints, per variant, Y's hash (inputs are multiples of 0.5, so Y is exact
// whatever the GEMM's algorithm) and `transfold-ab: seed_<variant> <ms>`, the
// mean time of one transpose + GEMM, for `transfold ab`.
#include <cublasLt.h>

#include "common.h"
#include "kernels.cuh"


struct seed {
    int m, n, k, iters;
    cublasHandle_t h;
    cublasLtHandle_t lt;
    __nv_bfloat16 *w, *wt, *x, *y;
};

// Y^T (n x m) = op(B) * X^T, B = Wt (n x k, ld n) with op N, or W (k x n, ld k)
// with op T: row-major Y[m,n] = X[m,k] * W[n,k]^T either way.
static void gemm(const struct seed *s, const void *b, cublasOperation_t op, int ldb)
{
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasGemmEx(s->h, op, CUBLAS_OP_N, s->n, s->m, s->k, &one, b, CUDA_R_16BF, ldb, s->x, CUDA_R_16BF, s->k,
                     &zero, s->y, CUDA_R_16BF, s->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// Wt (row-major [k,n]) = W^T (W row-major [n,k]) by the transpose kernel.
static void transpose_kernel(const struct seed *s)
{
    transpose_bf16<<<grid2d(s->n, s->k), dim3(TILE, TILE)>>>(s->wt, s->w, s->n, s->k);
    CK(cudaGetLastError());
}

// The same by cublasLtMatrixTransform: W is column-major k x n (ld k), Wt
// column-major n x k (ld n).
static void transpose_lt(const struct seed *s)
{
    const float one = 1.0f, zero = 0.0f;
    cublasLtMatrixTransformDesc_t desc;
    cublasLtMatrixLayout_t la, lc;
    cublasOperation_t t = CUBLAS_OP_T;
    CKB(cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F));
    CKB(cublasLtMatrixTransformDescSetAttribute(desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &t, sizeof(t)));
    CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, s->k, s->n, s->k));
    CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, s->n, s->k, s->n));
    CKB(cublasLtMatrixTransform(s->lt, desc, &one, s->w, la, &zero, NULL, NULL, s->wt, lc, 0));
    CKB(cublasLtMatrixLayoutDestroy(la));
    CKB(cublasLtMatrixLayoutDestroy(lc));
    CKB(cublasLtMatrixTransformDescDestroy(desc));
}

static void step(const struct seed *s, const char *variant)
{
    if (is(variant, "gemm")) {
        gemm(s, s->w, CUBLAS_OP_T, s->k);
        return;
    }
    if (is(variant, "kernel")) transpose_kernel(s);
    else transpose_lt(s);
    gemm(s, s->wt, CUBLAS_OP_N, s->n);
}

static void run(const struct seed *s, const char *variant)
{
    cudaEvent_t start, stop;
    float ms = 0.0f;
    step(s, variant); // warm-up: first-call costs stay out of the figure
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start, 0));
    for (int i = 0; i < s->iters; i++) step(s, variant);
    CK(cudaEventRecord(stop, 0));
    CK(cudaEventSynchronize(stop));
    CK(cudaEventElapsedTime(&ms, start, stop));
    char label[32];
    snprintf(label, sizeof label, "Y(%s)", variant);
    show_dev(label, s->y, (size_t)s->m * s->n, 2);
    printf("transfold-ab: seed_%s %.4f\n", variant, ms / s->iters);
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
}

int main(int argc, char **argv)
{
    int div = 1, iters = 20, a = 1;
    for (; a < argc && argv[a][0] == '-'; a += 2) {
        if (a + 1 >= argc) return usage(argv[0]);
        if (is(argv[a], "--div")) div = atoi(argv[a + 1]);
        else if (is(argv[a], "--iters")) iters = atoi(argv[a + 1]);
        else return usage(argv[0]);
    }
    if (div < 1 || iters < 1) return usage(argv[0]);

    struct seed s;
    s.m = 768 / div;
    s.n = 5120 / div;
    s.k = 13824 / div;
    s.iters = iters;
    CKB(cublasCreate(&s.h));
    CKB(cublasLtCreate(&s.lt));
    s.w = (__nv_bfloat16 *)dev_fill(TF_BF16, (size_t)s.n * s.k, 1);
    s.x = (__nv_bfloat16 *)dev_fill(TF_BF16, (size_t)s.m * s.k, 2);
    s.wt = (__nv_bfloat16 *)dev_zero((size_t)s.n * s.k * 2);
    s.y = (__nv_bfloat16 *)dev_zero((size_t)s.m * s.n * 2);
    printf("seed_bench: bf16 Y[%d,%d] = X[%d,%d] * W[%d,%d]^T, %d iterations\n", s.m, s.n, s.m, s.k, s.n, s.k,
           iters);

    static const char *all[] = {"kernel", "lt", "gemm"};
    int nvar = a < argc ? argc - a : 3;
    for (int i = 0; i < nvar; i++) {
        const char *v = a < argc ? argv[a + i] : all[i];
        if (!is(v, "kernel") && !is(v, "lt") && !is(v, "gemm")) return usage(argv[0]);
        run(&s, v);
    }

    CK(cudaFree(s.wt)); // the last pending transpose dies here
    CK(cudaFree(s.w));
    CK(cudaFree(s.x));
    CK(cudaFree(s.y));
    CKB(cublasLtDestroy(s.lt));
    CKB(cublasDestroy(s.h));
    return 0;
}
