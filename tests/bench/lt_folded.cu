// Steady-state cublasLtMatmul folded onto a transpose: Wt = W^T once by
// cublasLtMatrixTransform (TRANSA = T), then N matmuls Y = Wt * X with the
// same descriptors and the algorithm the program got from one heuristic query
// of its own, the way frameworks cache them. Under transfold (fold mode) each
// matmul is rewritten onto W with TRANSA = T; the algorithm for the rewritten
// descriptors is queried once and then cached, so the stand-in's trace holds
// one more cublasLtMatmulAlgoGetHeuristic than without transfold, whatever N.
#include <cublasLt.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = bench_n(argc, argv);
    const cublasOperation_t t = CUBLAS_OP_T;
    const size_t ws_bytes = 1 << 20;
    float *w = bench_mat(1), *x = bench_mat(2), *wt = bench_mat(0), *y = bench_mat(0);
    void *ws = dev_zero(ws_bytes);

    cublasLtHandle_t lt;
    cublasLtMatrixLayout_t l; // every matrix here is S x S f32, ld S
    cublasLtMatrixTransformDesc_t tdesc;
    CKB(cublasLtCreate(&lt));
    CKB(cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, S, S, S));
    CKB(cublasLtMatrixTransformDescCreate(&tdesc, CUDA_R_32F));
    CKB(cublasLtMatrixTransformDescSetAttribute(tdesc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &t, sizeof(t)));
    CKB(cublasLtMatrixTransform(lt, tdesc, &one, w, l, &zero, NULL, NULL, wt, l, 0));

    cublasLtMatmulDesc_t mm;
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulHeuristicResult_t algo;
    int found = 0;
    CKB(cublasLtMatmulDescCreate(&mm, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    CKB(cublasLtMatmulPreferenceCreate(&pref));
    CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                             sizeof(ws_bytes)));
    CKB(cublasLtMatmulAlgoGetHeuristic(lt, mm, l, l, l, l, pref, 1, &algo, &found));
    if (!found) tf_fail("no algorithm from cublasLtMatmulAlgoGetHeuristic", __LINE__, 0);

    bench_loop(n, [&] {
        CKB(cublasLtMatmul(lt, mm, &one, wt, l, x, l, &zero, y, l, y, l, &algo.algo, ws, ws_bytes, 0));
    });
    CK(cudaFree(wt)); // drops the pending transpose (destroying lt first would run it)
    CKB(cublasLtMatmulPreferenceDestroy(pref));
    CKB(cublasLtMatmulDescDestroy(mm));
    CKB(cublasLtMatrixTransformDescDestroy(tdesc));
    CKB(cublasLtMatrixLayoutDestroy(l));
    CKB(cublasLtDestroy(lt));
    return 0;
}
