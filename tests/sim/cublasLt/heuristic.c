/* cublasLtMatmulAlgoGetHeuristic and friends.
 *
 * The stand-in offers SIMLT_ALGO_COUNT algorithms (ids 0..3, algo.h; no
 * workspace; AlgoInit accepts ids up to SIMLT_ALGO_IDS - 1), every one
 * running every supported problem the same way; the heuristic returns them
 * in id order, as many as asked for. ONE chosen
 * exception stands in for the layout restrictions of real kernels:
 *
 *   UNSUPPORTED: matrix A in CUBLASLT_ORDER_ROW with TRANSA = T or C.
 *   (Row-ordered A is only read as stored, TRANSA = N.)
 *
 * and the real restriction of FP8 on Hopper and Ada (kept for FP4 and the
 * block-scaled modes of Blackwell): FP8 or FP4 A or B only with TRANSA = T,
 * TRANSB = N and column order ("TN"). Scale modes and IMMA orders are
 * checked as cublasLtMatmul checks them (scale_modes.c, problem.c).
 *
 * For these the heuristic returns CUBLAS_STATUS_NOT_SUPPORTED with 0
 * results, and cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED whatever
 * algo it is given. Every query appends {"op":"cublasLtMatmulAlgoGetHeuristic",...} to
 * the trace, so benchmarks can count them; the implicit query of a
 * cublasLtMatmul with algo == NULL is internal and is not traced. */
#include <string.h>

#include "algo.h"
#include "problem.h"
#include "trace.h"

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount)
{
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (requestedAlgoCount <= 0 || !heuristicResultsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    (void)preference; /* no workspace needed: every preference admits the algo */
    sim_gemm g;
    st = simlt_problem(SIMLT_DESC(operationDesc), SIMLT_LAYOUT(Adesc), SIMLT_LAYOUT(Bdesc), SIMLT_LAYOUT(Cdesc),
                       SIMLT_LAYOUT(Ddesc), &g);
    *returnAlgoCount = 0;
    for (int i = 0; st == CUBLAS_STATUS_SUCCESS && i < requestedAlgoCount && i < SIMLT_ALGO_COUNT; i++) {
        cublasLtMatmulHeuristicResult_t *r = &heuristicResultsArray[i];
        memset(r, 0, sizeof *r);
        simlt_algo_init(&r->algo, i, true);
        r->workspaceSize = 0;
        r->state = CUBLAS_STATUS_SUCCESS;
        r->wavesCount = 1.0f;
        *returnAlgoCount = i + 1;
    }
    sim_trace("cublasLtMatmulAlgoGetHeuristic", "\"status\":%d,\"returned\":%d", (int)st, *returnAlgoCount);
    return st;
}

cublasStatus_t cublasLtMatmulAlgoGetIds(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                        cudaDataType_t Ctype, cudaDataType_t Dtype, int requestedAlgoCount,
                                        int algoIdsArray[], int *returnAlgoCount)
{
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (requestedAlgoCount <= 0 || !algoIdsArray || !returnAlgoCount)
        return CUBLAS_STATUS_INVALID_VALUE;
    *returnAlgoCount = 0;
    if (!simlt_algo_types_ok(computeType, scaleType, Atype, Btype, Ctype, Dtype))
        return CUBLAS_STATUS_SUCCESS;
    for (int i = 0; i < requestedAlgoCount && i < SIMLT_ALGO_COUNT; i++)
        algoIdsArray[(*returnAlgoCount)++] = i;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoInit(cublasLtHandle_t lightHandle, cublasComputeType_t computeType,
                                      cudaDataType_t scaleType, cudaDataType_t Atype, cudaDataType_t Btype,
                                      cudaDataType_t Ctype, cudaDataType_t Dtype, int algoId,
                                      cublasLtMatmulAlgo_t *algo)
{
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!algo || algoId < 0 || algoId >= SIMLT_ALGO_IDS)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!simlt_algo_types_ok(computeType, scaleType, Atype, Btype, Ctype, Dtype))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    simlt_algo_init(algo, algoId, false);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulAlgoCheck(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                       cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                       cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                       const cublasLtMatmulAlgo_t *algo, cublasLtMatmulHeuristicResult_t *result)
{
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!algo || !result)
        return CUBLAS_STATUS_INVALID_VALUE;
    st = simlt_algo_check(algo);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    sim_gemm g;
    st = simlt_problem(SIMLT_DESC(operationDesc), SIMLT_LAYOUT(Adesc), SIMLT_LAYOUT(Bdesc), SIMLT_LAYOUT(Cdesc),
                       SIMLT_LAYOUT(Ddesc), &g);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    result->workspaceSize = 0;
    result->state = CUBLAS_STATUS_SUCCESS;
    result->wavesCount = 1.0f;
    return CUBLAS_STATUS_SUCCESS;
}
