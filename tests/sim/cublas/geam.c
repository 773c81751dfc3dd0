/* cublas<t>geam: C = alpha op(A) + beta op(B), S/D/C/Z and _64 forms.
 * Documented rules: lda/ldb cover op's stored rows, ldc >= max(1, m); in
 * place only as C = alpha C + beta op(B) (C == A, transa = N, lda == ldc)
 * or the mirror with B; anything else overlapping is INVALID_VALUE. A term
 * whose scalar is 0 is not read (B may then be NULL, the usual way to ask
 * for a plain transpose). Trace: {"op":"cublasSgeam","m":..,"n":..,
 * "transa":..,"transb":..,"a":A,"b":B,"c":C} (cublasSgeam_64 ...). */
#include <stdio.h>

#include "args.h"
#include "trace.h"

typedef struct geam_req {
    const char *name;
    cublasOperation_t ta, tb;
    int64_t m, n, lda, ldb, ldc;
    cudaDataType type;
    const void *alpha, *beta, *a, *b;
    void *c;
} geam_req;

static cublasStatus_t geam_check(cublasHandle_t h, const geam_req *r)
{
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!simcublas_op_ok(r->ta) || !simcublas_op_ok(r->tb) || r->m < 0 || r->n < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->lda < simcublas_max1(r->ta == CUBLAS_OP_N ? r->m : r->n) ||
        r->ldb < simcublas_max1(r->tb == CUBLAS_OP_N ? r->m : r->n) || r->ldc < simcublas_max1(r->m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!r->alpha || !r->beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->c == r->a && (r->ta != CUBLAS_OP_N || r->lda != r->ldc))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->c == r->b && (r->tb != CUBLAS_OP_N || r->ldb != r->ldc))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t geam_run(cublasHandle_t h, const geam_req *r)
{
    cublasStatus_t st = geam_check(h, r);
    if (st != CUBLAS_STATUS_SUCCESS || r->m == 0 || r->n == 0)
        return st;
    char line[512] = ""; /* the trace line's members, when tracing */
    if (sim_trace_enabled())
        snprintf(line, sizeof line, "\"m\":%lld,\"n\":%lld,\"transa\":\"%s\",\"transb\":\"%s\",\"a\":%llu,\"b\":%llu,\"c\":%llu",
              (long long)r->m, (long long)r->n, simcublas_op_name(r->ta), simcublas_op_name(r->tb), SIMCUBLAS_PTR(r->a), SIMCUBLAS_PTR(r->b),
              SIMCUBLAS_PTR(r->c));
    sim_add op = {.m = r->m, .n = r->n, .batch = 1, .scale = r->type, .alpha = r->alpha, .beta = r->beta};
    op.a = simcublas_view(r->a, r->type, r->ta, r->lda, 0);
    op.b = simcublas_view(r->b, r->type, r->tb, r->ldb, 0);
    op.c = simcublas_view(r->c, r->type, CUBLAS_OP_N, r->ldc, 0);
    return simcublasLt_enqueue(h->stream, &(simlt_work){.op = r->name, .trace = line, .add = &op});
}

#define GEAM_FN(SYM, NAME, IT, T, DT)                                                                               \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, IT m, IT n,       \
                       const T *alpha, const T *A, IT lda, const T *beta, const T *B, IT ldb, T *C, IT ldc)          \
    {                                                                                                               \
        geam_req r = {.name = NAME, .ta = transa, .tb = transb, .m = m, .n = n, .lda = lda, .ldb = ldb, .ldc = ldc, \
                      .type = DT, .alpha = alpha, .beta = beta, .a = A, .b = B, .c = C};                            \
        return geam_run(handle, &r);                                                                                \
    }
#define GEAM_TYPE(P, T, DT) SIMCUBLAS_BOTH_WIDTHS(GEAM_FN, cublas##P##geam, "cublas" #P "geam", T, DT)

SIMCUBLAS_SDCZ(GEAM_TYPE)
