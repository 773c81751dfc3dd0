/* Integer matmul on cuBLASLt's IMMA orders the way NVIDIA's LtIgemmTensor
 * sample runs it: A (m x k, int8, column order) transformed into COL32, B
 * (k x n) transposed by the transform into n x k COL4_4R2_8C (then, a
 * second time, COL32_2R_4R4), C = A B with 32I compute and scale into an
 * int32 COL32 matrix, transformed back into column order; then the same
 * product in column order (TN, A^T made by a transform). m, n and k are
 * not multiples of the tiles, so the padding is exercised; the transformed
 * buffers start filled with 0x5a, which the transforms leave where no
 * element goes.
 *
 * Usage: lt_imma
 * Prints the algorithm ids GetIds gives, each transformed buffer as hex
 * bytes and each C (column-major, decimal); tests/e2e/lt_imma_check.py
 * checks the element positions and C against numpy. */
#include <cublasLt.h>

#include "common.h"

enum { M = 40, N = 20, K = 70 };

static int roundoff(int x, int to)
{
    return (x + to - 1) / to * to;
}

static void *device(size_t bytes, int fill)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemset(d, fill, bytes));
    return d;
}

static void *int8_matrix(int rows, int cols, unsigned seed)
{
    int8_t h[M * K > K * N ? M * K : K * N];
    for (int i = 0; i < rows * cols; i++) h[i] = (int8_t)(2 * tf_val((size_t)i, seed)); /* -4 .. 4 */
    void *d = device((size_t)(rows * cols), 0);
    CK(cudaMemcpy(d, h, (size_t)(rows * cols), cudaMemcpyHostToDevice));
    return d;
}

static cublasLtMatrixLayout_t layout(cudaDataType t, int rows, int cols, int ld, cublasLtOrder_t order)
{
    cublasLtMatrixLayout_t l;
    CKB(cublasLtMatrixLayoutCreate(&l, t, (uint64_t)rows, (uint64_t)cols, ld));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof order));
    return l;
}

static void dump(const char *label, const void *d, size_t bytes)
{
    unsigned char *h = malloc(bytes);
    CK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    printf("%s", label);
    for (size_t i = 0; i < bytes; i++) printf("%s%02x", i % 64 ? "" : " ", h[i]);
    printf("\n");
    free(h);
}

static void transform(cublasLtHandle_t lt, cublasOperation_t op, const void *x, cublasLtMatrixLayout_t lx, void *y,
                      cublasLtMatrixLayout_t ly)
{
    cublasLtMatrixTransformDesc_t t;
    float one = 1.0f, zero = 0.0f;
    CKB(cublasLtMatrixTransformDescCreate(&t, CUDA_R_32F));
    CKB(cublasLtMatrixTransformDescSetAttribute(t, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &op, sizeof op));
    CKB(cublasLtMatrixTransform(lt, t, &one, x, lx, &zero, NULL, NULL, y, ly, 0));
    CKB(cublasLtMatrixTransformDescDestroy(t));
}

/* C = A B through the IMMA orders with B in `border`; prints the buffers. */
static void igemm(cublasLtHandle_t lt, const void *a, const void *b, cublasLtOrder_t border, const char *name)
{
    int lda32 = 32 * M, ldb = 32 * roundoff(N, border == CUBLASLT_ORDER_COL4_4R2_8C ? 8 : 32), ldc32 = 32 * M;
    size_t abytes = (size_t)(roundoff(K, 32) / 32 * lda32), bbytes = (size_t)(roundoff(K, 32) / 32 * ldb);
    size_t cbytes = (size_t)(roundoff(N, 32) / 32 * ldc32) * sizeof(int32_t);
    void *at = device(abytes, 0x5a), *bt = device(bbytes, 0x5a), *ct = device(cbytes, 0), *c = device(M * N * 4, 0);
    cublasLtMatrixLayout_t la = layout(CUDA_R_8I, M, K, M, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lb = layout(CUDA_R_8I, K, N, K, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lc = layout(CUDA_R_32I, M, N, M, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lat = layout(CUDA_R_8I, M, K, lda32, CUBLASLT_ORDER_COL32);
    cublasLtMatrixLayout_t lbt = layout(CUDA_R_8I, N, K, ldb, border);
    cublasLtMatrixLayout_t lct = layout(CUDA_R_32I, M, N, ldc32, CUBLASLT_ORDER_COL32);
    transform(lt, CUBLAS_OP_N, a, la, at, lat);
    transform(lt, CUBLAS_OP_T, b, lb, bt, lbt);
    cublasLtMatmulDesc_t desc;
    int32_t alpha = 1, beta = 0, opt = CUBLAS_OP_T;
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32I, CUDA_R_32I));
    CKB(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opt, sizeof opt));
    CKB(cublasLtMatmul(lt, desc, &alpha, at, lat, bt, lbt, &beta, ct, lct, ct, lct, NULL, NULL, 0, 0));
    transform(lt, CUBLAS_OP_N, ct, lct, c, lc);
    printf("%s A", name);
    dump("", at, abytes);
    printf("%s B", name);
    dump("", bt, bbytes);
    int32_t h[M * N];
    CK(cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s C", name);
    for (int i = 0; i < M * N; i++) printf(" %d", (int)h[i]);
    printf("\n");
    cublasLtMatrixLayout_t ls[] = {la, lb, lc, lat, lbt, lct};
    for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) CKB(cublasLtMatrixLayoutDestroy(ls[i]));
    CKB(cublasLtMatmulDescDestroy(desc));
    void *all[] = {at, bt, ct, c};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CK(cudaFree(all[i]));
}

/* The same product in column order, TN: A^T stored (k x m), B as it is. */
static void igemm_col(cublasLtHandle_t lt, const void *at, const void *b)
{
    void *c = device(M * N * 4, 0);
    cublasLtMatrixLayout_t la = layout(CUDA_R_8I, K, M, K, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lb = layout(CUDA_R_8I, K, N, K, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lc = layout(CUDA_R_32I, M, N, M, CUBLASLT_ORDER_COL);
    cublasLtMatmulDesc_t desc;
    int32_t alpha = 1, beta = 0, opt = CUBLAS_OP_T;
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32I, CUDA_R_32I));
    CKB(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opt, sizeof opt));
    CKB(cublasLtMatmul(lt, desc, &alpha, at, la, b, lb, &beta, c, lc, c, lc, NULL, NULL, 0, 0));
    int32_t h[M * N];
    CK(cudaMemcpy(h, c, sizeof h, cudaMemcpyDeviceToHost));
    printf("col C");
    for (int i = 0; i < M * N; i++) printf(" %d", (int)h[i]);
    printf("\n");
    cublasLtMatrixLayout_t ls[] = {la, lb, lc};
    for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) CKB(cublasLtMatrixLayoutDestroy(ls[i]));
    CKB(cublasLtMatmulDescDestroy(desc));
    CK(cudaFree(c));
}

int main(void)
{
    cublasLtHandle_t lt;
    CKB(cublasLtCreate(&lt));
    int ids[8], found = 0;
    CKB(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_32I, CUDA_R_32I, CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, 8,
                                 ids, &found));
    printf("ids imma %d\n", found);
    void *a = int8_matrix(M, K, 1), *b = int8_matrix(K, N, 2);
    igemm(lt, a, b, CUBLASLT_ORDER_COL4_4R2_8C, "col4");
    igemm(lt, a, b, CUBLASLT_ORDER_COL32_2R_4R4, "col32_2r");
    void *at = device(M * K, 0);
    cublasLtMatrixLayout_t la = layout(CUDA_R_8I, M, K, M, CUBLASLT_ORDER_COL);
    cublasLtMatrixLayout_t lat = layout(CUDA_R_8I, K, M, K, CUBLASLT_ORDER_COL);
    transform(lt, CUBLAS_OP_T, a, la, at, lat); /* A^T, for the TN form */
    igemm_col(lt, at, b);
    CKB(cublasLtMatrixLayoutDestroy(la));
    CKB(cublasLtMatrixLayoutDestroy(lat));
    CK(cudaFree(at));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CKB(cublasLtDestroy(lt));
    return 0;
}
