/* cublasLtMatrixLayout_t: create/init/destroy, attributes, and the view of a
 * layout that the reference kernels use. */
#include <stdlib.h>

#include "internal.h"
#include "tiled.h"

#define L(id, field) SIMLT_ATTR(id, simlt_layout, field)
static const simlt_attr layout_attrs[] = {
    L(CUBLASLT_MATRIX_LAYOUT_TYPE, type),
    L(CUBLASLT_MATRIX_LAYOUT_ORDER, order),
    L(CUBLASLT_MATRIX_LAYOUT_ROWS, rows),
    L(CUBLASLT_MATRIX_LAYOUT_COLS, cols),
    L(CUBLASLT_MATRIX_LAYOUT_LD, ld),
    L(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, batch_count),
    L(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, batch_offset),
    L(CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, plane_offset),
    L(CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, batch_mode),
};
#undef L

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld)
{
    simlt_layout *l = simlt_init_storage(matLayout, size, sizeof *l);
    if (!l)
        return CUBLAS_STATUS_ALLOC_FAILED;
    l->type = (uint32_t)type;
    l->order = CUBLASLT_ORDER_COL;
    l->rows = rows;
    l->cols = cols;
    l->ld = ld;
    l->batch_count = 1;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld)
{
    if (!matLayout)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatrixLayout_t l = malloc(sizeof *l);
    if (!l)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasLtMatrixLayoutInit_internal(l, sizeof *l, type, rows, cols, ld);
    *matLayout = l;
    return CUBLAS_STATUS_SUCCESS;
}

SIMLT_DESCRIPTOR_FNS(cublasLtMatrixLayout, cublasLtMatrixLayoutAttribute_t, layout_attrs)

bool simlt_op_ok(int32_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

void simlt_stored_dims(cublasOperation_t op, uint64_t rows, uint64_t cols, uint64_t *r, uint64_t *c)
{
    *r = op == CUBLAS_OP_N ? rows : cols;
    *c = op == CUBLAS_OP_N ? cols : rows;
}

cublasStatus_t simlt_layout_check(const simlt_layout *l)
{
    if (!sim_elem_size((cudaDataType)l->type))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (simlt_tiled(l))
        return simlt_tiled_check(l);
    if (l->order != CUBLASLT_ORDER_COL && l->order != CUBLASLT_ORDER_ROW)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (l->batch_count < 1 || l->batch_mode != CUBLASLT_BATCH_MODE_STRIDED || l->plane_offset != 0)
        return l->batch_count < 1 ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_SUPPORTED;
    uint64_t line = l->order == CUBLASLT_ORDER_COL ? l->rows : l->cols;
    if (l->ld < 0 || (uint64_t)l->ld < (line ? line : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* Column order: (r, c) at r + c*ld; row order: r*ld + c; an IMMA order:
 * r + c*rows of the dense copy tiled.c gathers. A transposing op swaps the
 * two strides; C also conjugates. */
sim_mat simlt_view(const simlt_layout *l, const void *base, cublasOperation_t op)
{
    sim_mat v = {.base = base, .type = (cudaDataType)l->type, .bs = l->batch_offset};
    int64_t rs = l->order == CUBLASLT_ORDER_COL ? 1 : l->ld;
    int64_t cs = l->order == CUBLASLT_ORDER_COL ? l->ld : 1;
    if (simlt_tiled(l)) {
        rs = 1;
        cs = (int64_t)l->rows;
        v.bs = (int64_t)(l->rows * l->cols);
    }
    bool trans = op != CUBLAS_OP_N;
    v.rs = trans ? cs : rs;
    v.cs = trans ? rs : cs;
    v.conj = op == CUBLAS_OP_C && sim_elem_complex(v.type);
    return v;
}
