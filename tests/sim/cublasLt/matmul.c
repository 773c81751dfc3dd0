/* cublasLtMatmul: D = epilogue(alpha * op(A) op(B) + beta * C), on the
 * stream (enqueue.c). An algo must be one of the
 * stand-in's with a configuration within its capabilities (algo.h;
 * INVALID_VALUE otherwise); NULL means an implicit heuristic query, which
 * here is the same support check.
 * FP8 scale factors and amax follow the descriptor (problem.c decides which
 * combinations run). Trace: {"op":"cublasLtMatmul","m":..,"n":..,"k":..,
 * "transa":"N|T|C","transb":..,"batch":..,"epilogue":<cublasLtEpilogue_t>,
 * "a":A,"b":B,"c":C,"d":D} (addresses as decimal integers; with pointer
 * arrays, the arrays). Errors return without a trace line. Planar complex
 * operands (planar.c) and the IMMA orders (tiled.c) are supported. */
#include <stdio.h>

#include "algo.h"
#include "planar.h"
#include "problem.h"
#include "tiled.h"
#include "scale_modes.h"
#include "trace.h"

/* Alpha/beta scalars or per-row vectors, per the descriptor's pointer mode. */
static void set_scalars(const simlt_matmul_desc *desc, const void *alpha, const void *beta, sim_gemm *g)
{
    int32_t pm = desc->pointer_mode;
    g->alpha = alpha;
    g->beta = beta;
    g->alpha_vec = pm >= CUBLASLT_POINTER_MODE_DEVICE_VECTOR;
    g->alpha_vec_bs = desc->alpha_vec_bs;
    g->beta_vec = pm == CUBLASLT_POINTER_MODE_DEVICE_VECTOR;
    g->beta_zero = pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;
}

/* Pointer checks that need the data: scalars, epilogue inputs, in-place. */
static cublasStatus_t check_data(const simlt_matmul_desc *desc, const sim_gemm *g, const simlt_layout *c,
                                 const simlt_layout *d)
{
    if (!g->alpha || (!g->beta && !g->beta_zero))
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((desc->epilogue & CUBLASLT_EPILOGUE_BIAS) && !desc->bias)
        return CUBLAS_STATUS_INVALID_VALUE;
    if ((desc->epilogue & 128) && !desc->aux)
        return CUBLAS_STATUS_INVALID_VALUE;
    /* In place (C == D) requires the two layouts to describe the same memory. */
    if (g->c.base == g->d.base && (c->ld != d->ld || c->order != d->order || c->batch_offset != d->batch_offset))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

static __thread const char *trace_as;

void simcublasLt_trace_as(const char *op)
{
    trace_as = op;
}

static void trace_matmul(char *line, size_t cap, const simlt_matmul_desc *desc, const sim_gemm *g)
{
    snprintf(line, cap,
              "\"m\":%lld,\"n\":%lld,\"k\":%lld,\"transa\":\"%s\",\"transb\":\"%s\",\"batch\":%lld,"
              "\"epilogue\":%u,\"a\":%llu,\"b\":%llu,\"c\":%llu,\"d\":%llu",
              (long long)g->m, (long long)g->n, (long long)g->k, simlt_op_name(desc->transa),
              simlt_op_name(desc->transb), (long long)g->batch, desc->epilogue, SIMLT_PTR(g->a.base), SIMLT_PTR(g->b.base),
              SIMLT_PTR(g->c.base), SIMLT_PTR(g->d.base));
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                              cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                              cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream)
{
    (void)workspace, (void)workspaceSizeInBytes;
    const char *op = trace_as ? trace_as : "cublasLtMatmul";
    trace_as = NULL;
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st == CUBLAS_STATUS_SUCCESS && algo)
        st = simlt_algo_check(algo);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    const simlt_matmul_desc *desc = SIMLT_DESC(computeDesc);
    sim_gemm g;
    st = simlt_problem(desc, SIMLT_LAYOUT(Adesc), SIMLT_LAYOUT(Bdesc), SIMLT_LAYOUT(Cdesc), SIMLT_LAYOUT(Ddesc), &g);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    g.a.base = A;
    g.b.base = B;
    g.c.base = C;
    g.d.base = D;
    set_scalars(desc, alpha, beta, &g);
    st = check_data(desc, &g, SIMLT_LAYOUT(Cdesc), SIMLT_LAYOUT(Ddesc));
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (desc->epilogue & CUBLASLT_EPILOGUE_BIAS)
        g.bias = desc->bias;
    simlt_scales_set(desc, &g);
    if (desc->epilogue & 128) {
        g.aux = desc->aux;
        g.aux_ld = desc->aux_ld;
        g.aux_bs = desc->aux_bs;
    }
    if (g.m == 0 || g.n == 0 || g.batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    char line[512] = "";
    if (sim_trace_enabled())
        trace_matmul(line, sizeof line, desc, &g);
    simlt_work w = {.op = op, .trace = line, .gemm = &g};
    if (SIMLT_LAYOUT(Ddesc)->batch_mode == CUBLASLT_BATCH_MODE_POINTER_ARRAY) {
        w.arrays[0] = A, w.arrays[1] = B, w.arrays[2] = C, w.arrays[3] = D;
        w.narrays = g.batch;
        g.batch = 1;
    }
    const simlt_layout *const ls[4] = {SIMLT_LAYOUT(Adesc), SIMLT_LAYOUT(Bdesc), SIMLT_LAYOUT(Cdesc),
                                       SIMLT_LAYOUT(Ddesc)};
    for (int i = 0; i < 4; i++) {
        w.planar[i] = simlt_planar(ls[i]) ? ls[i] : NULL;
        w.tiled[i] = simlt_tiled(ls[i]) ? ls[i] : NULL;
    }
    return simcublasLt_enqueue(stream, &w);
}
