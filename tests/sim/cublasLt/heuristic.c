/* cublasLtMatmulAlgoGetHeuristic and friends.
 *
 * The stand-in has one algorithm (a fixed cublasLtMatmulAlgo_t, id 0, no
 * workspace) that runs every supported problem, with ONE chosen exception,
 * standing in for the layout restrictions of real kernels:
 *
 *   UNSUPPORTED: matrix A in CUBLASLT_ORDER_ROW with TRANSA = T or C.
 *   (Row-ordered A is only read as stored, TRANSA = N.)
 *
 * and the real restriction of FP8 on Hopper and Ada: FP8 A or B only with
 * TRANSA = T, TRANSB = N and column order ("TN").
 *
 * For these the heuristic returns CUBLAS_STATUS_NOT_SUPPORTED with 0
 * results, and cublasLtMatmul returns CUBLAS_STATUS_NOT_SUPPORTED whatever
 * algo it is given. Every query appends {"op":"cublasLtMatmulAlgoGetHeuristic",...} to
 * the trace, so benchmarks can count them; the implicit query of a
 * cublasLtMatmul with algo == NULL is internal and is not traced. */
#include <string.h>

#include "problem.h"
#include "trace.h"

#define SIMLT_ALGO_MAGIC 0x31474c414d4953ull /* "SIMALG1" */

static void fixed_algo(cublasLtMatmulAlgo_t *algo)
{
    memset(algo, 0, sizeof *algo);
    algo->data[0] = SIMLT_ALGO_MAGIC;
}

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
    if (st == CUBLAS_STATUS_SUCCESS) {
        cublasLtMatmulHeuristicResult_t *r = &heuristicResultsArray[0];
        memset(r, 0, sizeof *r);
        fixed_algo(&r->algo);
        r->workspaceSize = 0;
        r->state = CUBLAS_STATUS_SUCCESS;
        r->wavesCount = 1.0f;
        *returnAlgoCount = 1;
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
    bool ok = Atype == Btype && Ctype == Dtype && simcublasLt_types_ok(computeType, scaleType, Atype, Ctype);
    *returnAlgoCount = ok ? 1 : 0;
    if (ok)
        algoIdsArray[0] = 0;
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
    if (!algo || algoId != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (Atype != Btype || Ctype != Dtype || !simcublasLt_types_ok(computeType, scaleType, Atype, Ctype))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    fixed_algo(algo);
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
