/* cuBLASLt descriptor contents as transfold keeps them: attribute sets,
 * matrix layouts decoded into views, and descriptors built again from them. */
#include "lt/descriptors.h"
#include <string.h>

#include "core/state.h"

/* Layout decoding and the order algebra described in descriptors.h. */
/* One pass over the set (ids are unique in it), each attribute read as
 * lt_attrs_int or lt_attrs_u64 would read it: a layout is decoded on every
 * matmul of a program that makes its layouts per call. */
lt_layout lt_layout_decode(const lt_attrs *a)
{
    lt_layout l = { .type = (cudaDataType)-1, .order = CUBLASLT_ORDER_COL, .batch = 1 };
    int64_t plane_offset = 0, batch_mode = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const lt_attr *x = &a->a[i];
        switch (x->id) {
        case CUBLASLT_MATRIX_LAYOUT_TYPE: l.type = (cudaDataType)lt_attr_int(x, -1); break;
        case CUBLASLT_MATRIX_LAYOUT_ORDER: l.order = (int32_t)lt_attr_int(x, CUBLASLT_ORDER_COL); break;
        case CUBLASLT_MATRIX_LAYOUT_ROWS: l.rows = (int64_t)lt_attr_u64(x, 0); break;
        case CUBLASLT_MATRIX_LAYOUT_COLS: l.cols = (int64_t)lt_attr_u64(x, 0); break;
        case CUBLASLT_MATRIX_LAYOUT_LD: l.ld = lt_attr_int(x, 0); break;
        case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: l.batch = (int32_t)lt_attr_int(x, 1); break;
        case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: l.stride = lt_attr_int(x, 0); break;
        case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET: plane_offset = lt_attr_int(x, 0); break;
        case CUBLASLT_MATRIX_LAYOUT_BATCH_MODE: batch_mode = lt_attr_int(x, 0); break;
        default: break;
        }
    }
    l.elem = pl_cuda_dtype_size(l.type);
    bool order_ok = l.order == CUBLASLT_ORDER_COL || l.order == CUBLASLT_ORDER_ROW;
    l.plain = order_ok && l.elem && !a->opaque && l.rows >= 0 && l.cols >= 0 && plane_offset == 0 && batch_mode == 0;
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

/* Building descriptors from attribute sets. Every real call runs with the
 * depth raised: the library may call functions we hook. */
static cublasStatus_t create(lt_kind kind, const lt_attrs *a, void **out)
{
    switch (kind) {
    case LT_MATMUL:
        return TF_REAL(cublasLtMatmulDescCreate)(
            (cublasLtMatmulDesc_t *)out,
            (cublasComputeType_t)lt_attrs_int(a, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, 0),
            (cudaDataType_t)lt_attrs_int(a, CUBLASLT_MATMUL_DESC_SCALE_TYPE, 0));
    case LT_LAYOUT:
        return TF_REAL(cublasLtMatrixLayoutCreate)(
            (cublasLtMatrixLayout_t *)out, (cudaDataType)lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_TYPE, 0),
            lt_attrs_u64(a, CUBLASLT_MATRIX_LAYOUT_ROWS, 0), lt_attrs_u64(a, CUBLASLT_MATRIX_LAYOUT_COLS, 0),
            lt_attrs_int(a, CUBLASLT_MATRIX_LAYOUT_LD, 0));
    case LT_PREF:
        return TF_REAL(cublasLtMatmulPreferenceCreate)((cublasLtMatmulPreference_t *)out);
    case LT_TRANSFORM:
        return TF_REAL(cublasLtMatrixTransformDescCreate)(
            (cublasLtMatrixTransformDesc_t *)out,
            (cudaDataType)lt_attrs_int(a, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, 0));
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}

static cublasStatus_t set(lt_kind kind, void *d, const lt_attr *x)
{
    switch (kind) {
    case LT_MATMUL:
        return TF_REAL(cublasLtMatmulDescSetAttribute)(d, (cublasLtMatmulDescAttributes_t)x->id, x->v, x->size);
    case LT_LAYOUT:
        return TF_REAL(cublasLtMatrixLayoutSetAttribute)(d, (cublasLtMatrixLayoutAttribute_t)x->id, x->v, x->size);
    case LT_PREF:
        return TF_REAL(cublasLtMatmulPreferenceSetAttribute)(d, (cublasLtMatmulPreferenceAttributes_t)x->id, x->v,
                                                             x->size);
    case LT_TRANSFORM:
        return TF_REAL(cublasLtMatrixTransformDescSetAttribute)(d, (cublasLtMatrixTransformDescAttributes_t)x->id,
                                                                x->v, x->size);
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}

static void destroy(lt_kind kind, void *d)
{
    switch (kind) {
    case LT_MATMUL: TF_REAL(cublasLtMatmulDescDestroy)(d); break;
    case LT_LAYOUT: TF_REAL(cublasLtMatrixLayoutDestroy)(d); break;
    case LT_PREF: TF_REAL(cublasLtMatmulPreferenceDestroy)(d); break;
    case LT_TRANSFORM: TF_REAL(cublasLtMatrixTransformDescDestroy)(d); break;
    }
}

cublasStatus_t lt_build(lt_kind kind, const lt_attrs *a, void **out)
{
    *out = NULL;
    if (a->opaque)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    pl_depth++;
    void *d = NULL;
    cublasStatus_t st = create(kind, a, &d);
    for (uint32_t i = 0; st == CUBLAS_STATUS_SUCCESS && i < a->n; i++)
        st = set(kind, d, &a->a[i]);
    if (st == CUBLAS_STATUS_SUCCESS)
        *out = d;
    else if (d)
        destroy(kind, d);
    pl_depth--;
    return st;
}

void lt_unbuild(lt_kind kind, void *d)
{
    if (!d)
        return;
    pl_depth++;
    destroy(kind, d);
    pl_depth--;
}

bool lt_attr_is_pointer(int32_t id)
{
    switch (id) {
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER:
    case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_AMAX_D_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER:
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER:
    case CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER:
        return true;
    default:
        return false;
    }
}
