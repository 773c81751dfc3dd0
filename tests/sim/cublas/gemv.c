/* cublas<t>gemv: y = alpha op(A) x + beta y, as a reference GEMM with one
 * column (x and y are k x 1 and m x 1 views with stride inc; a negative inc
 * walks the vector backwards from its last element, as BLAS defines).
 * Trace: {"op":"cublasSgemv","m":..,"n":..,"trans":..,"a":..,"x":..,"y":..}
 * (m, n as passed, i.e. the stored shape of A). */
#include <stdio.h>

#include "args.h"
#include "trace.h"

typedef struct gemv_req {
    const char *name;
    cublasOperation_t trans;
    int64_t m, n, lda, incx, incy;
    cudaDataType type;
    const void *alpha, *beta, *a, *x;
    void *y;
} gemv_req;

static cublasStatus_t gemv_check(cublasHandle_t h, const gemv_req *r)
{
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!simcublas_op_ok(r->trans) || r->m < 0 || r->n < 0 || r->incx == 0 || r->incy == 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (r->lda < simcublas_max1(r->m) || !r->alpha || !r->beta)
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* len elements with stride inc, element 0 first in BLAS order. */
static sim_mat vector_view(const void *p, cudaDataType type, int64_t len, int64_t inc)
{
    int64_t first = inc < 0 ? (len - 1) * -inc : 0;
    const char *base = (const char *)p + first * (int64_t)simcublasLt_type_size(type);
    return (sim_mat){.base = base, .type = type, .rs = inc, .cs = 0};
}

static cublasStatus_t gemv_run(cublasHandle_t h, const gemv_req *r)
{
    cublasStatus_t st = gemv_check(h, r);
    if (st != CUBLAS_STATUS_SUCCESS || r->m == 0 || r->n == 0)
        return st;
    char line[512] = ""; /* the trace line's members, when tracing */
    if (sim_trace_enabled())
        snprintf(line, sizeof line, "\"m\":%lld,\"n\":%lld,\"trans\":\"%s\",\"a\":%llu,\"x\":%llu,\"y\":%llu",
              (long long)r->m, (long long)r->n, simcublas_op_name(r->trans), SIMCUBLAS_PTR(r->a), SIMCUBLAS_PTR(r->x), SIMCUBLAS_PTR(r->y));
    bool n_op = r->trans == CUBLAS_OP_N;
    sim_gemm g = {.m = n_op ? r->m : r->n, .n = 1, .k = n_op ? r->n : r->m, .batch = 1, .scale = r->type,
                  .alpha = r->alpha, .beta = r->beta};
    g.a = simcublas_view(r->a, r->type, r->trans, r->lda, 0);
    g.b = vector_view(r->x, r->type, g.k, r->incx);
    g.c = vector_view(r->y, r->type, g.m, r->incy);
    g.d = g.c;
    return simcublasLt_enqueue(h->stream, &(simlt_work){.op = r->name, .trace = line, .gemm = &g});
}

#define GEMV_FN(SYM, NAME, IT, T, DT)                                                                              \
    cublasStatus_t SYM(cublasHandle_t handle, cublasOperation_t trans, IT m, IT n, const T *alpha, const T *A,     \
                       IT lda, const T *x, IT incx, const T *beta, T *y, IT incy)                                  \
    {                                                                                                              \
        gemv_req r = {.name = NAME, .trans = trans, .m = m, .n = n, .lda = lda, .incx = incx, .incy = incy,        \
                      .type = DT, .alpha = alpha, .beta = beta, .a = A, .x = x, .y = y};                           \
        return gemv_run(handle, &r);                                                                               \
    }
#define GEMV_TYPE(P, T, DT) SIMCUBLAS_BOTH_WIDTHS(GEMV_FN, cublas##P##gemv_v2, "cublas" #P "gemv", T, DT)

SIMCUBLAS_SDCZ(GEMV_TYPE)
