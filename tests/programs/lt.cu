// cuBLASLt: transposes made by cublasLtMatrixTransform, cublasSgeam or a
// kernel, consumed by cublasLtMatmul (and cublasGemmEx).
// Usage: lt CASE
//   seed_bias         the seed in bf16, the way PyTorch's addmm runs it:
//                     t = W^T by cublasLtMatrixTransform, Y = X * t + bias by
//                     cublasLtMatmul (epilogue BIAS, heuristic queried by us)
//   seed_bias_kernel  the same with t made by a transpose kernel
//   row_order         f32, every layout CUBLASLT_ORDER_ROW
//   batched           f32, 3 matrices per layout (batch count, strided offset)
//   transform_gemmex  cublasLtMatrixTransform consumed by cublasGemmEx
//   geam_lt           cublasSgeam consumed by cublasLtMatmul
//   desc_changed      the transform's descriptor destroyed and its layouts
//                     changed while t is pending; t read back at the end
//   unsupported       a layout whose folded form the stand-in's heuristic
//                     rejects (a row-ordered A with TRANSA = T)
//   own_heuristic     f32, cublasLtMatmulAlgoGetHeuristic called by us, the
//                     algorithm passed (the other f32 cases pass algo = NULL)
//   reused_desc       one matmul descriptor and its layouts for two matmuls
//                     reading the same pending t, an epilogue BIAS set on the
//                     descriptor in between (the second call must see it)
//   reused_bias       the same descriptor's bias pointer aimed at the pending
//                     t in between: t runs before the second call reads it
//   cublas_handle     geam_lt with the cuBLAS handle passed as the cuBLASLt
//                     handle, as PyTorch does (real cuBLAS accepts it): two
//                     matmuls per handle, two handles one after the other
//                     (the second may get the first's address)
#include <cublasLt.h>

#include "common.h"
#include "kernels.cuh"

static cublasLtHandle_t LT;
static void *WS;
static const size_t WS_BYTES = 1 << 20;
static const float ONE = 1.0f, ZERO = 0.0f;

typedef cublasLtMatrixLayout_t Layout;

static Layout layout(cudaDataType t, uint64_t rows, uint64_t cols, int64_t ld, int row_order = 0, int batch = 1,
                     int64_t stride = 0)
{
    Layout l;
    CKB(cublasLtMatrixLayoutCreate(&l, t, rows, cols, ld));
    if (row_order) {
        int32_t order = CUBLASLT_ORDER_ROW;
        CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order));
    }
    if (batch > 1) {
        int32_t b = batch;
        CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &b, sizeof b));
        CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
    }
    return l;
}

static cublasLtMatrixTransformDesc_t transform_desc(void)
{
    cublasLtMatrixTransformDesc_t d;
    CKB(cublasLtMatrixTransformDescCreate(&d, CUDA_R_32F));
    int32_t t = CUBLAS_OP_T;
    CKB(cublasLtMatrixTransformDescSetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &t, sizeof t));
    return d;
}

// dst (layout dl) = src^T (layout sl), beta = 0, no B.
static void transform(const void *src, Layout sl, void *dst, Layout dl)
{
    cublasLtMatrixTransformDesc_t d = transform_desc();
    CKB(cublasLtMatrixTransform(LT, d, &ONE, src, sl, &ZERO, NULL, NULL, dst, dl, 0));
    CKB(cublasLtMatrixTransformDescDestroy(d));
}

struct Mm {
    cublasOperation_t ta, tb;
    const void *bias;  // epilogue BIAS when set
    int heuristic;     // query the algorithm ourselves and pass it
};

// D = op(A) * op(B) [+ bias], C = D, beta = 0.
static void matmul(const Mm &mm, const void *a, Layout al, const void *b, Layout bl, void *d, Layout dl)
{
    cublasLtMatmulDesc_t md;
    CKB(cublasLtMatmulDescCreate(&md, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    int32_t ta = mm.ta, tb = mm.tb;
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (mm.bias) {
        int32_t epi = CUBLASLT_EPILOGUE_BIAS;
        CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &mm.bias, sizeof mm.bias));
    }
    cublasLtMatmulHeuristicResult_t res;
    const cublasLtMatmulAlgo_t *algo = NULL;
    if (mm.heuristic) {
        cublasLtMatmulPreference_t pref;
        CKB(cublasLtMatmulPreferenceCreate(&pref));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &WS_BYTES,
                                                 sizeof WS_BYTES));
        int n = 0;
        CKB(cublasLtMatmulAlgoGetHeuristic(LT, md, al, bl, dl, dl, pref, 1, &res, &n));
        printf("heuristic: %d algorithm(s), status %d\n", n, n ? (int)res.state : -1);
        if (n < 1) exit(3);
        algo = &res.algo;
        CKB(cublasLtMatmulPreferenceDestroy(pref));
    }
    CKB(cublasLtMatmul(LT, md, &ONE, a, al, b, bl, &ZERO, d, dl, d, dl, algo, WS, WS_BYTES, 0));
    CKB(cublasLtMatmulDescDestroy(md));
}

static void destroy(Layout a, Layout b = NULL, Layout c = NULL, Layout d = NULL)
{
    Layout all[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++)
        if (all[i]) CKB(cublasLtMatrixLayoutDestroy(all[i]));
}

// The seed: W[N,K] row-major bf16 (col-major K x N, ld K); t = W^T (col-major
// N x K, ld N); Y^T (N x MS) = t * X^T + bias, bias of length N.
static void seed_bias(int by_kernel)
{
    enum { MS = 32, N = 64, K = 96 };
    void *w = dev_fill(TF_BF16, N * K, 11), *x = dev_fill(TF_BF16, MS * K, 12), *bias = dev_fill(TF_BF16, N, 13);
    void *t = dev_zero(N * K * 2), *y = dev_zero(MS * N * 2);
    Layout wl = layout(CUDA_R_16BF, K, N, K), tl = layout(CUDA_R_16BF, N, K, N);
    Layout xl = layout(CUDA_R_16BF, K, MS, K), yl = layout(CUDA_R_16BF, N, MS, N);
    if (by_kernel) {
        transpose_bf16<<<grid2d(N, K), dim3(TILE, TILE)>>>((__nv_bfloat16 *)t, (const __nv_bfloat16 *)w, N, K);
        CK(cudaGetLastError());
    } else {
        transform(w, wl, t, tl);
    }
    Mm mm = {CUBLAS_OP_N, CUBLAS_OP_N, bias, 1};
    matmul(mm, t, tl, x, xl, y, yl);
    CK(cudaFree(t));
    show_dev("Y", y, MS * N, 2);
    destroy(wl, tl, xl, yl);
}

enum { R = 24, C = 16, M = 10, B = 3 };

// f32, column-major: W (R x C, ld R), t = W^T (C x R, ld C);
// Y (M x R) = X (M x C) * t.
static void plain(const char *name)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(M * C, 2), *t = (float *)dev_zero(R * C * 4);
    float *y = (float *)dev_zero(M * R * 4);
    Layout wl = layout(CUDA_R_32F, R, C, R), tl = layout(CUDA_R_32F, C, R, C);
    Layout xl = layout(CUDA_R_32F, M, C, M), yl = layout(CUDA_R_32F, M, R, M);
    Mm mm = {CUBLAS_OP_N, CUBLAS_OP_N, NULL, is(name, "own_heuristic")};
    if (is(name, "geam_lt")) {
        cublasHandle_t h;
        CKB(cublasCreate(&h));
        CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &ONE, w, R, &ZERO, w, R, t, C));
        matmul(mm, x, xl, t, tl, y, yl);
        CK(cudaFree(t));
        CKB(cublasDestroy(h));
    } else if (is(name, "cublas_handle")) {
        cublasLtHandle_t own = LT;
        CK(cudaFree(t));
        for (int round = 0; round < 2; round++) {
            cublasHandle_t h;
            CKB(cublasCreate(&h));
            LT = (cublasLtHandle_t)h;
            t = (float *)dev_zero(R * C * 4);
            CKB(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_T, C, R, &ONE, w, R, &ZERO, w, R, t, C));
            matmul(mm, x, xl, t, tl, y, yl);
            matmul(mm, x, xl, t, tl, y, yl); // the same folded call again, for this handle
            CK(cudaFree(t));                 // t dies unread by anything else: dropped
            CKB(cublasDestroy(h));
            LT = own;
        }
    } else if (is(name, "transform_gemmex")) {
        cublasHandle_t h;
        CKB(cublasCreate(&h));
        transform(w, wl, t, tl);
        CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, R, C, &ONE, x, CUDA_R_32F, M, t, CUDA_R_32F, C, &ZERO, y,
                         CUDA_R_32F, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        CK(cudaFree(t));
        CKB(cublasDestroy(h));
    } else if (is(name, "desc_changed")) {
        cublasLtMatrixTransformDesc_t d = transform_desc();
        Layout wl2 = layout(CUDA_R_32F, R, C, R), tl2 = layout(CUDA_R_32F, C, R, C);
        CKB(cublasLtMatrixTransform(LT, d, &ONE, w, wl2, &ZERO, NULL, NULL, t, tl2, 0));
        // The program reuses or drops its descriptors while t is pending.
        int32_t notrans = CUBLAS_OP_N;
        CKB(cublasLtMatrixTransformDescSetAttribute(d, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &notrans, sizeof notrans));
        CKB(cublasLtMatrixTransformDescDestroy(d));
        uint64_t rows = 4;
        int64_t ld = 4;
        CKB(cublasLtMatrixLayoutSetAttribute(wl2, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof rows));
        CKB(cublasLtMatrixLayoutSetAttribute(wl2, CUBLASLT_MATRIX_LAYOUT_LD, &ld, sizeof ld));
        CKB(cublasLtMatrixLayoutDestroy(tl2));
        matmul(mm, x, xl, t, tl, y, yl);
        show_dev("t", t, R * C, 4); // needs the transpose, replayed as first issued
        CKB(cublasLtMatrixLayoutDestroy(wl2));
        CK(cudaFree(t));
    } else {
        transform(w, wl, t, tl);
        matmul(mm, x, xl, t, tl, y, yl);
        CK(cudaFree(t));
    }
    show_dev("Y", y, M * R, 4);
    destroy(wl, tl, xl, yl);
}

// Y = X * t, then Y2 = X * t + bias through the same descriptor, changed by
// SetAttribute in between: what transfold decoded for the first call must
// not serve the second.
static void reused_desc(void)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(M * C, 2), *t = (float *)dev_zero(R * C * 4);
    float *y = (float *)dev_zero(M * R * 4), *y2 = (float *)dev_zero(M * R * 4), *bias = dev_f32(M, 3);
    Layout wl = layout(CUDA_R_32F, R, C, R), tl = layout(CUDA_R_32F, C, R, C);
    Layout xl = layout(CUDA_R_32F, M, C, M), yl = layout(CUDA_R_32F, M, R, M);
    cublasLtMatmulDesc_t md;
    CKB(cublasLtMatmulDescCreate(&md, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    transform(w, wl, t, tl);
    CKB(cublasLtMatmul(LT, md, &ONE, x, xl, t, tl, &ZERO, y, yl, y, yl, NULL, WS, WS_BYTES, 0));
    int32_t epi = CUBLASLT_EPILOGUE_BIAS;
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    CKB(cublasLtMatmul(LT, md, &ONE, x, xl, t, tl, &ZERO, y2, yl, y2, yl, NULL, WS, WS_BYTES, 0));
    CK(cudaFree(t));
    show_dev("Y", y, M * R, 4);
    show_dev("Y2", y2, M * R, 4);
    CKB(cublasLtMatmulDescDestroy(md));
    destroy(wl, tl, xl, yl);
}

// Y = X * t, then Y2 = X * W2 + bias through the same descriptor, whose
// bias pointer SetAttribute aims at t while t's transform is still pending:
// the second call's bias read is known only from the descriptor as changed,
// so what transfold decoded for the first call must not serve it (t is
// materialized before the second call reads it).
static void reused_bias(void)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(M * C, 2), *w2 = dev_f32(C * R, 4), *t = (float *)dev_zero(R * C * 4);
    float *y = (float *)dev_zero(M * R * 4), *y2 = (float *)dev_zero(M * R * 4);
    Layout wl = layout(CUDA_R_32F, R, C, R), tl = layout(CUDA_R_32F, C, R, C);
    Layout xl = layout(CUDA_R_32F, M, C, M), yl = layout(CUDA_R_32F, M, R, M);
    cublasLtMatmulDesc_t md;
    CKB(cublasLtMatmulDescCreate(&md, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    transform(w, wl, t, tl);
    CKB(cublasLtMatmul(LT, md, &ONE, x, xl, t, tl, &ZERO, y, yl, y, yl, NULL, WS, WS_BYTES, 0));
    int32_t epi = CUBLASLT_EPILOGUE_BIAS;
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    CKB(cublasLtMatmulDescSetAttribute(md, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &t, sizeof t));
    CKB(cublasLtMatmul(LT, md, &ONE, x, xl, w2, tl, &ZERO, y2, yl, y2, yl, NULL, WS, WS_BYTES, 0));
    CK(cudaFree(t));
    show_dev("Y", y, M * R, 4);
    show_dev("Y2", y2, M * R, 4);
    CKB(cublasLtMatmulDescDestroy(md));
    destroy(wl, tl, xl, yl);
}

// Row-ordered: W (R x C, ld C), t = W^T (C x R, ld R).
// row_order:   Y (M x R, ld R) = X (M x C) * t, t as B with op N.
// unsupported: Y (C x M, ld M) = t * X2 (R x M), t as A with op N. Folding
//              would make A the row-ordered W with op T, which the stand-in's
//              heuristic rejects (its one documented unsupported combination).
static void row_order(int unsupported)
{
    float *w = dev_f32(R * C, 1), *x = dev_f32(M * C, 2), *x2 = dev_f32(R * M, 3), *t = (float *)dev_zero(R * C * 4);
    float *y = (float *)dev_zero(M * R * 4);
    Layout wl = layout(CUDA_R_32F, R, C, C, 1), tl = layout(CUDA_R_32F, C, R, R, 1);
    transform(w, wl, t, tl);
    Mm mm = {CUBLAS_OP_N, CUBLAS_OP_N, NULL, 0};
    if (!unsupported) {
        Layout xl = layout(CUDA_R_32F, M, C, C, 1), yl = layout(CUDA_R_32F, M, R, R, 1);
        matmul(mm, x, xl, t, tl, y, yl);
        destroy(xl, yl);
    } else {
        Layout xl = layout(CUDA_R_32F, R, M, M, 1), yl = layout(CUDA_R_32F, C, M, M, 1);
        matmul(mm, t, tl, x2, xl, y, yl);
        destroy(xl, yl);
    }
    CK(cudaFree(t));
    show_dev("Y", y, M * R, 4);
    destroy(wl, tl);
}

// B stacked matrices: W_b (R x C, ld R, stride R*C) -> t_b (C x R, ld C);
// Y_b (M x R) = X_b * t_b.
static void batched(void)
{
    float *w = dev_f32(B * R * C, 1), *x = dev_f32(B * M * C, 2), *t = (float *)dev_zero(B * R * C * 4);
    float *y = (float *)dev_zero(B * M * R * 4);
    Layout wl = layout(CUDA_R_32F, R, C, R, 0, B, R * C), tl = layout(CUDA_R_32F, C, R, C, 0, B, R * C);
    Layout xl = layout(CUDA_R_32F, M, C, M, 0, B, M * C), yl = layout(CUDA_R_32F, M, R, M, 0, B, M * R);
    transform(w, wl, t, tl);
    Mm mm = {CUBLAS_OP_N, CUBLAS_OP_N, NULL, 0};
    matmul(mm, x, xl, t, tl, y, yl);
    CK(cudaFree(t));
    show_dev("Y", y, B * M * R, 4);
    destroy(wl, tl, xl, yl);
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage(argv[0]);
    const char *c = argv[1];
    CKB(cublasLtCreate(&LT));
    CK(cudaMalloc(&WS, WS_BYTES));
    if (is(c, "seed_bias") || is(c, "seed_bias_kernel"))
        seed_bias(is(c, "seed_bias_kernel"));
    else if (is(c, "row_order") || is(c, "unsupported"))
        row_order(is(c, "unsupported"));
    else if (is(c, "batched"))
        batched();
    else if (is(c, "reused_desc"))
        reused_desc();
    else if (is(c, "reused_bias"))
        reused_bias();
    else if (is(c, "own_heuristic") || is(c, "geam_lt") || is(c, "transform_gemmex") || is(c, "desc_changed") ||
             is(c, "plain") || is(c, "cublas_handle"))
        plain(c);
    else
        return usage(argv[0]);
    CK(cudaFree(WS));
    CKB(cublasLtDestroy(LT));
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
