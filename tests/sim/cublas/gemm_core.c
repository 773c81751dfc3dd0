/* The classic GEMM family's shared path: argument checks as documented for
 * cublas<t>gemm (handle, ops, m/n/k, leading dimensions, scalars, batch
 * count), quick return for empty problems, trace line, reference GEMM. */
#include <stdio.h>

#include "args.h"
#include "trace.h"

cublasStatus_t simcublas_gemm_check(cublasHandle_t h, const simcublas_gemm *r)
{
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!simcublas_op_ok(r->ta) || !simcublas_op_ok(r->tb))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->m < 0 || r->n < 0 || r->k < 0 || r->batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->lda < simcublas_max1(r->ta == CUBLAS_OP_N ? r->m : r->k) ||
        r->ldb < simcublas_max1(r->tb == CUBLAS_OP_N ? r->k : r->n) || r->ldc < simcublas_max1(r->m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!r->alpha || !r->beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* The handle's math mode asks for TF32 tensor cores (f32 operands are
 * then read as TF32, as on a GPU). */
bool simcublas_tf32(cublasHandle_t h)
{
    unsigned base = (unsigned)h->math_mode & ~(unsigned)CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    return base == CUBLAS_TF32_TENSOR_OP_MATH;
}

static sim_gemm to_ref(cublasHandle_t h, const simcublas_gemm *r)
{
    sim_gemm g = {.m = r->m, .n = r->n, .k = r->k, .batch = r->arrays ? 1 : r->batch, .scale = r->scale,
                  .alpha = r->alpha, .beta = r->beta};
    g.a = simcublas_view(r->a, r->at, r->ta, r->lda, r->sa);
    g.b = simcublas_view(r->b, r->bt, r->tb, r->ldb, r->sb);
    g.c = simcublas_view(r->c, r->ct, CUBLAS_OP_N, r->ldc, r->sc);
    g.d = g.c;
    g.a.tf32 = r->at == CUDA_R_32F && simcublas_tf32(h);
    g.b.tf32 = r->bt == CUDA_R_32F && simcublas_tf32(h);
    g.scratch = h->workspace_size >= 8 ? (uint32_t *)h->workspace : NULL;
    return g;
}

/* Pointer-array batches run one reference GEMM per entry (enqueue.c). */
cublasStatus_t simcublas_gemm_run(cublasHandle_t h, const simcublas_gemm *r)
{
    cublasStatus_t st = simcublas_gemm_check(h, r);
    if (st != CUBLAS_STATUS_SUCCESS || r->m == 0 || r->n == 0 || r->batch == 0)
        return st;
    char line[512] = ""; /* the trace line's members, when tracing */
    if (sim_trace_enabled())
        snprintf(line, sizeof line,
              "\"m\":%lld,\"n\":%lld,\"k\":%lld,\"transa\":\"%s\",\"transb\":\"%s\",\"batch\":%lld,"
              "\"a\":%llu,\"b\":%llu,\"c\":%llu",
              (long long)r->m, (long long)r->n, (long long)r->k, simcublas_op_name(r->ta), simcublas_op_name(r->tb),
              (long long)r->batch, SIMCUBLAS_PTR(r->a), SIMCUBLAS_PTR(r->b), SIMCUBLAS_PTR(r->c));
    sim_gemm g = to_ref(h, r);
    simlt_work w = {.op = r->name, .trace = line, .gemm = &g};
    if (r->arrays)
        w = (simlt_work){.op = r->name, .trace = line, .gemm = &g, .arrays = {r->a, r->b, (const void *)r->c},
                         .narrays = r->batch};
    return simcublasLt_enqueue(h->stream, &w);
}
