/* cublasLtMatmul on planar complex matrices the way NVIDIA's planar-complex
 * Lt sample lays them out: real parts in one plane, imaginary parts
 * CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET bytes later, two batches whose
 * stride counts real sub-elements; D = A^H B + beta C (complex float,
 * A 5 x 4 stored, B 5 x 3, C and D 4 x 3 with ld 6).
 *
 * Usage: lt_planar
 * Prints each batch's D as its real plane then its imaginary plane
 * ("batch <b> <re...> <im...>", 4 x 3 column-major); tests/e2e/lt_planar_check.py
 * recomputes them with numpy. */
#include <cublasLt.h>

#include <stdbool.h>

#include "common.h"

enum { M = 4, N = 3, K = 5, LDC = 6, BATCH = 2 };

/* A planar buffer of `elems` complex elements per batch: real plane, then
 * imaginary plane `plane` floats later, batches `stride` floats apart. */
static float *planar(int elems, int stride, int plane, unsigned seed, bool fill)
{
    size_t floats = (size_t)(plane + stride * (BATCH - 1) + elems);
    float *h = calloc(floats, sizeof *h), *d;
    for (int b = 0; fill && b < BATCH; b++)
        for (int e = 0; e < elems; e++) {
            h[b * stride + e] = tf_val((size_t)(2 * (b * elems + e)), seed);
            h[plane + b * stride + e] = tf_val((size_t)(2 * (b * elems + e) + 1), seed);
        }
    CK(cudaMalloc((void **)&d, floats * sizeof *h));
    CK(cudaMemcpy(d, h, floats * sizeof *h, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static cublasLtMatrixLayout_t layout(int rows, int cols, int ld, int stride, int plane)
{
    cublasLtMatrixLayout_t l;
    int32_t count = BATCH;
    int64_t bs = stride, po = (int64_t)plane * (int64_t)sizeof(float);
    CKB(cublasLtMatrixLayoutCreate(&l, CUDA_C_32F, (uint64_t)rows, (uint64_t)cols, ld));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &bs, sizeof bs));
    CKB(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, &po, sizeof po));
    return l;
}

int main(void)
{
    /* Strides and planes leave gaps, as a real layout may. */
    const int sa = K * M + 4, sb = K * N + 2, sc = LDC * N, pa = 2 * sa + 8, pb = 2 * sb, pc = 2 * sc + 6;
    float *a = planar(K * M, sa, pa, 1, true), *b = planar(K * N, sb, pb, 2, true);
    float *c = planar(LDC * N, sc, pc, 3, true), *d = planar(LDC * N, sc, pc, 4, true);
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    CKB(cublasLtCreate(&lt));
    CKB(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_C_32F));
    int32_t opc = CUBLAS_OP_C;
    CKB(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opc, sizeof opc));
    cublasLtMatrixLayout_t la = layout(K, M, K, sa, pa), lb = layout(K, N, K, sb, pb), lc = layout(M, N, LDC, sc, pc);
    cuComplex alpha = {1.0f, 0.0f}, beta = {0.5f, -0.5f};
    CKB(cublasLtMatmul(lt, desc, &alpha, a, la, b, lb, &beta, c, lc, d, lc, NULL, NULL, 0, 0));
    size_t floats = (size_t)(pc + sc * (BATCH - 1) + LDC * N);
    float *h = malloc(floats * sizeof *h);
    CK(cudaMemcpy(h, d, floats * sizeof *h, cudaMemcpyDeviceToHost));
    for (int bt = 0; bt < BATCH; bt++) {
        printf("batch %d", bt);
        for (int plane = 0; plane < 2; plane++)
            for (int j = 0; j < N; j++)
                for (int i = 0; i < M; i++) printf(" %.9g", h[(plane ? pc : 0) + bt * sc + i + j * LDC]);
        printf("\n");
    }
    free(h);
    float *all[] = {a, b, c, d};
    for (int i = 0; i < 4; i++) CK(cudaFree(all[i]));
    CKB(cublasLtMatrixLayoutDestroy(la));
    CKB(cublasLtMatrixLayoutDestroy(lb));
    CKB(cublasLtMatrixLayoutDestroy(lc));
    CKB(cublasLtMatmulDescDestroy(desc));
    CKB(cublasLtDestroy(lt));
    return 0;
}
