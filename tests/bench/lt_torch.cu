// A cublasLtMatmul the way PyTorch's cuBLASLt path makes it (gemm_and_bias
// in ATen's CUDABlas.cpp): every call creates its matmul descriptor (compute
// type, then TRANSA, TRANSB, EPILOGUE and BIAS_POINTER set), three matrix
// layouts and a preference (workspace size and four alignments set), asks
// cublasLtMatmulAlgoGetHeuristic for one algorithm, runs cublasLtMatmul and
// destroys the five descriptors. Nothing is pending: under transfold every
// call passes through, and what it costs is the shadowing of descriptors
// that live for one call.
#include <cublasLt.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    const uint64_t ws_bytes = 1 << 20;
    const uint32_t align = 16;
    const cublasOperation_t opa = CUBLAS_OP_T, opb = CUBLAS_OP_N;
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    const void *no_bias = NULL;
    float *w = bench_mat(1), *x = bench_mat(2), *y = bench_mat(0);
    void *ws = dev_zero(ws_bytes);
    cublasLtHandle_t lt;
    CKB(cublasLtCreate(&lt));

    bench_loop(n, [&] {
        cublasLtMatmulDesc_t mm;
        cublasLtMatrixLayout_t la, lb, lc;
        cublasLtMatmulPreference_t pref;
        CKB(cublasLtMatmulDescCreate(&mm, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        CKB(cublasLtMatmulDescSetAttribute(mm, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
        CKB(cublasLtMatmulDescSetAttribute(mm, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
        CKB(cublasLtMatmulDescSetAttribute(mm, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue));
        CKB(cublasLtMatmulDescSetAttribute(mm, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &no_bias, sizeof no_bias));
        CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, S, S, S));
        CKB(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, S, S, S));
        CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, S, S, S));
        CKB(cublasLtMatmulPreferenceCreate(&pref));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                                 sizeof ws_bytes));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align,
                                                 sizeof align));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &align,
                                                 sizeof align));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &align,
                                                 sizeof align));
        CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &align,
                                                 sizeof align));
        cublasLtMatmulHeuristicResult_t algo;
        int found = 0;
        CKB(cublasLtMatmulAlgoGetHeuristic(lt, mm, la, lb, lc, lc, pref, 1, &algo, &found));
        if (!found) tf_fail("no algorithm from cublasLtMatmulAlgoGetHeuristic", __LINE__, 0);
        CKB(cublasLtMatmul(lt, mm, &one, w, la, x, lb, &zero, y, lc, y, lc, &algo.algo, ws, ws_bytes, 0));
        CKB(cublasLtMatmulPreferenceDestroy(pref));
        CKB(cublasLtMatrixLayoutDestroy(lc));
        CKB(cublasLtMatrixLayoutDestroy(lb));
        CKB(cublasLtMatrixLayoutDestroy(la));
        CKB(cublasLtMatmulDescDestroy(mm));
    });
    CKB(cublasLtDestroy(lt));
    return 0;
}
