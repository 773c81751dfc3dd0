/* cublasLtMatrixTransform: C = alpha * op(A) + beta * op(B), each matrix in
 * its own layout (column or row order or an IMMA order, tiled.c; batched
 * with its own stride). A or
 * B may be absent (NULL pointer and descriptor); a term whose scalar is 0
 * is not read. Trace: {"op":"cublasLtMatrixTransform","m":..,"n":..,
 * "transa":..,"transb":..,"batch":..,"a":A,"b":B,"c":C}. */
#include <stdio.h>

#include "problem.h"
#include "tiled.h"
#include "trace.h"

static bool scale_ok(int32_t scale)
{
    return scale == CUDA_R_32F || scale == CUDA_R_64F || scale == CUDA_C_32F || scale == CUDA_C_64F ||
           scale == CUDA_R_16F;
}

/* An operand present in memory must have a layout whose op matches C. */
static cublasStatus_t check_operand(const void *x, const simlt_layout *l, int32_t op, const simlt_layout *c)
{
    if (!l)
        return x ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS;
    if (!simlt_op_ok(op))
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasStatus_t st = simlt_layout_check(l);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    uint64_t r, k;
    simlt_stored_dims((cublasOperation_t)op, l->rows, l->cols, &r, &k);
    if (r != c->rows || k != c->cols || l->batch_count != c->batch_count)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (sim_elem_complex((cudaDataType)l->type) != sim_elem_complex((cudaDataType)c->type))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t check_in_place(const void *x, const simlt_layout *l, int32_t op, const void *c,
                                     const simlt_layout *cl)
{
    if (!x || x != c)
        return CUBLAS_STATUS_SUCCESS;
    bool same = op == CUBLAS_OP_N && l->ld == cl->ld && l->order == cl->order && l->type == cl->type &&
                l->batch_offset == cl->batch_offset;
    return same ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

static cublasStatus_t check_all(const simlt_transform_desc *t, const void *A, const simlt_layout *al,
                                const void *B, const simlt_layout *bl, const void *C, const simlt_layout *cl)
{
    if (!t || !cl)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!scale_ok(t->scale) || t->pointer_mode > CUBLASLT_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    /* FP4 is a matmul operand type only (no documented transform of it). */
    if (cl->type == CUDA_R_4F_E2M1 || (al && al->type == CUDA_R_4F_E2M1) || (bl && bl->type == CUDA_R_4F_E2M1))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    cublasStatus_t st = simlt_layout_check(cl);
    if (st == CUBLAS_STATUS_SUCCESS && sim_elem_complex((cudaDataType)t->scale) !=
                                           sim_elem_complex((cudaDataType)cl->type))
        st = CUBLAS_STATUS_NOT_SUPPORTED;
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_operand(A, al, t->transa, cl);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_operand(B, bl, t->transb, cl);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_in_place(A, al, t->transa, C, cl);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = check_in_place(B, bl, t->transb, C, cl);
    return st;
}

cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t lightHandle, cublasLtMatrixTransformDesc_t transformDesc,
                                       const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                                       const void *beta, const void *B, cublasLtMatrixLayout_t Bdesc, void *C,
                                       cublasLtMatrixLayout_t Cdesc, cudaStream_t stream)
{
    cublasStatus_t st = simlt_check_handle(lightHandle);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    const simlt_transform_desc *t = SIMLT_TDESC(transformDesc);
    const simlt_layout *al = SIMLT_LAYOUT(Adesc), *bl = SIMLT_LAYOUT(Bdesc), *cl = SIMLT_LAYOUT(Cdesc);
    st = check_all(t, A, al, B, bl, C, cl);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    if (!alpha || !beta || !C)
        return CUBLAS_STATUS_INVALID_VALUE;
    sim_add op = {.m = (int64_t)cl->rows, .n = (int64_t)cl->cols, .batch = cl->batch_count,
                  .scale = (cudaDataType)t->scale, .alpha = alpha, .beta = beta};
    if (al)
        op.a = simlt_view(al, A, (cublasOperation_t)t->transa);
    if (bl)
        op.b = simlt_view(bl, B, (cublasOperation_t)t->transb);
    op.c = simlt_view(cl, C, CUBLAS_OP_N);
    if (op.m == 0 || op.n == 0)
        return CUBLAS_STATUS_SUCCESS;
    char line[512] = ""; /* the trace line's members, when tracing */
    if (sim_trace_enabled())
        snprintf(line, sizeof line,
              "\"m\":%lld,\"n\":%lld,\"transa\":\"%s\",\"transb\":\"%s\",\"batch\":%lld,\"a\":%llu,\"b\":%llu,"
              "\"c\":%llu",
              (long long)op.m, (long long)op.n, simlt_op_name(t->transa), simlt_op_name(t->transb),
              (long long)op.batch, SIMLT_PTR(A), SIMLT_PTR(B), SIMLT_PTR(C));
    simlt_work w = {.op = "cublasLtMatrixTransform", .trace = line, .add = &op};
    const simlt_layout *ls[3] = {A ? al : NULL, B ? bl : NULL, cl};
    for (int i = 0; i < 3; i++)
        w.tiled[i] = ls[i] && simlt_tiled(ls[i]) ? ls[i] : NULL;
    return simcublasLt_enqueue(stream, &w);
}
