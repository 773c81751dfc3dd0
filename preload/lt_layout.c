/* Layout decoding and the order algebra described in lt_layout.h. */
#include "lt_layout.h"

lt_layout lt_layout_decode(const lt_attrs *a)
{
    lt_layout l = {
        .type = (cudaDataType)lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_TYPE, -1),
        .order = (int32_t)lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_ORDER, CUBLASLT_ORDER_COL),
        .rows = (int64_t)lt_attrs_u64(a, CUBLASLT_MATRIX_LAYOUT_ROWS, 0),
        .cols = (int64_t)lt_attrs_u64(a, CUBLASLT_MATRIX_LAYOUT_COLS, 0),
        .ld = lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_LD, 0),
        .batch = (int32_t)lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, 1),
        .stride = lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, 0),
    };
    l.elem = pl_cuda_dtype_size(l.type);
    bool order_ok = l.order == CUBLASLT_ORDER_COL || l.order == CUBLASLT_ORDER_ROW;
    l.plain = order_ok && l.elem && !a->opaque && l.rows >= 0 && l.cols >= 0 &&
              lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, 0) == 0 &&
              lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, 0) == 0;
    return l;
}

bool lt_layout_row(const lt_layout *l) { return l->order == CUBLASLT_ORDER_ROW; }

tf_view lt_layout_view(const lt_layout *l, const void *p)
{
    bool row = lt_layout_row(l);
    return pl_matrix(p, l->elem, row ? l->cols : l->rows, row ? l->rows : l->cols, l->ld, l->batch, l->stride);
}

/* Real data has no conjugate: C is T there. */
static cublasOperation_t plain_op(cublasOperation_t op, bool complex_type)
{
    return op == CUBLAS_OP_C && !complex_type ? CUBLAS_OP_T : op;
}

bool lt_op_to_engine(const lt_layout *l, cublasOperation_t op, bool complex_type, tf_op *out)
{
    op = plain_op(op, complex_type);
    if (!lt_layout_row(l)) {
        *out = pl_op_from_cublas(op);
        return true;
    }
    *out = op == CUBLAS_OP_N ? TF_OP_T : TF_OP_N;
    return op != CUBLAS_OP_C;
}

bool lt_op_from_engine(const lt_layout *l, tf_op op, bool complex_type, cublasOperation_t *out)
{
    cublasOperation_t c = plain_op(pl_op_to_cublas(op), complex_type);
    if (!lt_layout_row(l)) {
        *out = c;
        return true;
    }
    *out = c == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
    return c != CUBLAS_OP_C;
}

void lt_layout_folded(lt_attrs *a, const lt_layout *l, int64_t ld, int64_t stride)
{
    lt_attrs_set_u64(a, CUBLASLT_MATRIX_LAYOUT_ROWS, (uint64_t)l->cols);
    lt_attrs_set_u64(a, CUBLASLT_MATRIX_LAYOUT_COLS, (uint64_t)l->rows);
    lt_attrs_set_i64(a, CUBLASLT_MATRIX_LAYOUT_LD, ld);
    if (l->stride)
        lt_attrs_set_i64(a, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, stride);
}

pl_stype lt_scale_stype(int64_t scale)
{
    switch (scale) {
    case CUDA_R_16F: return TF_S_F16;
    case CUDA_R_32F: return TF_S_F32;
    case CUDA_R_64F: return TF_S_F64;
    case CUDA_C_32F: return TF_S_C32;
    case CUDA_C_64F: return TF_S_C64;
    case CUDA_R_32I: return TF_S_I32;
    default: return TF_S_NONE;
    }
}

bool lt_op_valid(int64_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; }
