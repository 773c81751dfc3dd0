/* cublasLtMatmul with CUBLASLT_BATCH_MODE_POINTER_ARRAY, the way NVIDIA's
 * batched Lt samples pass per-batch matrices: A, B, C, D as device arrays of
 * device pointers; three batches of D = A B (4 x 5 by 5 x 3, f32), the
 * matrices of each batch in separate allocations, found by the heuristic.
 *
 * Usage: lt_batch_ptr
 * Prints each batch's D ("batch <i> D ..."); tests/e2e/lt_batch_ptr_check.py
 * recomputes them with numpy from the same inputs (exact: multiples of 0.5). */
#include <cublasLt.h>

#include "common.h"

enum { M = 4, N = 3, K = 5, BATCH = 3 };

static void *upload(const void *h, size_t bytes)
{
    void *d;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

static cublasLtMatrixLayout_t layout(int rows, int cols)
{
    cublasLtMatrixLayout_t l;
    int32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY, count = BATCH;
    CKB(cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, (uint64_t)rows, (uint64_t)cols, rows));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof mode));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count));
    return l;
}

int main(void)
{
    void *a[BATCH], *b[BATCH], *d[BATCH];
    for (int i = 0; i < BATCH; i++) {
        float ha[M * K], hb[K * N], hd[M * N];
        for (int j = 0; j < M * K; j++) ha[j] = tf_val((size_t)j, 20u + (unsigned)i);
        for (int j = 0; j < K * N; j++) hb[j] = tf_val((size_t)j, 30u + (unsigned)i);
        for (int j = 0; j < M * N; j++) hd[j] = -99.0f;
        a[i] = upload(ha, sizeof ha);
        b[i] = upload(hb, sizeof hb);
        d[i] = upload(hd, sizeof hd);
    }
    void *pa = upload(a, sizeof a), *pb = upload(b, sizeof b), *pd = upload(d, sizeof d);
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    CKB(cublasLtCreate(&lt));
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasLtMatrixLayout_t la = layout(M, K), lb = layout(K, N), ld = layout(M, N);
    cublasLtMatmulPreference_t pref;
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    cublasLtMatmulHeuristicResult_t res;
    int found = 0;
    CKB(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &res, &found));
    if (!found) tf_fail("no algorithm for pointer-array batches", __LINE__, 0);
    float alpha = 1.0f, beta = 0.0f;
    CKB(cublasLtMatmul(lt, desc, &alpha, pa, la, pb, lb, &beta, pd, ld, pd, ld, &res.algo, NULL, 0, 0));
    for (int i = 0; i < BATCH; i++) {
        float h[M * N];
        CK(cudaMemcpy(h, d[i], sizeof h, cudaMemcpyDeviceToHost));
        printf("batch %d D", i);
        for (int j = 0; j < M * N; j++) printf(" %.9g", h[j]);
        printf("\n");
        CK(cudaFree(a[i]));
        CK(cudaFree(b[i]));
        CK(cudaFree(d[i]));
    }
    CK(cudaFree(pa));
    CK(cudaFree(pb));
    CK(cudaFree(pd));
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    CKB(cublasLtMatrixLayoutDestroy(la));
    CKB(cublasLtMatrixLayoutDestroy(lb));
    CKB(cublasLtMatrixLayoutDestroy(ld));
    CKB(cublasLtMatmulDescDestroy(desc));
    CKB(cublasLtDestroy(lt));
    return 0;
}
