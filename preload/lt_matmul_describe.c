/* Describing a cublasLtMatmul for the engine: operands A and B (foldable
 * unless refused), D written, C read unless beta is a known zero. */
#include "lt_matmul.h"
#include "lt_shadow.h"

static lt_described snapshot(const lt_matmul_call *c, lt_matmul_shadow *s)
{
    if (!lt_shadow_get(LT_MATMUL, c->desc, &s->desc))
        return LT_UNKNOWN;
    for (int i = 0; i < 4; i++) {
        if (!lt_shadow_get(LT_LAYOUT, c->lay[i], &s->lay[i]))
            return LT_UNKNOWN;
        s->l[i] = lt_layout_decode(&s->lay[i]);
        if (!s->l[i].plain)
            return LT_UNKNOWN;
    }
    int64_t ta = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_TRANSA, CUBLAS_OP_N);
    int64_t tb = lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_TRANSB, CUBLAS_OP_N);
    if (!lt_op_valid(ta) || !lt_op_valid(tb))
        return LT_INVALID;
    s->op[0] = (cublasOperation_t)ta;
    s->op[1] = (cublasOperation_t)tb;
    s->stype = lt_scale_stype(lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_SCALE_TYPE, -1));
    s->pointer_mode = (int32_t)lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_HOST);
    s->epilogue = (uint32_t)lt_attrs_int(&s->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DEFAULT);
    s->complex_type = tf_cuda_dtype_complex(s->l[LT_A].type);
    return LT_DESCRIBED;
}

/* op(A) is m x k, op(B) k x n, C and D m x n (the layouts' logical shapes,
 * whatever their order). */
static bool shapes(const lt_matmul_shadow *s, tf_gemm *g)
{
    const lt_layout *a = &s->l[LT_A], *b = &s->l[LT_B], *cl = &s->l[LT_C], *d = &s->l[LT_D];
    bool na = s->op[0] == CUBLAS_OP_N, nb = s->op[1] == CUBLAS_OP_N;
    int64_t am = na ? a->rows : a->cols, ak = na ? a->cols : a->rows;
    int64_t bk = nb ? b->rows : b->cols, bn = nb ? b->cols : b->rows;
    g->m = d->rows;
    g->n = d->cols;
    g->k = ak;
    return am == d->rows && bn == d->cols && ak == bk && cl->rows == d->rows && cl->cols == d->cols;
}

static bool fp8(cudaDataType t) { return t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2; }

/* Why an operand must be read as it is, or NULL. */
static const char *operand_refusal(const lt_matmul_shadow *s, int i, bool mapped)
{
    if (fp8(s->l[LT_A].type) || fp8(s->l[LT_B].type))
        return "FP8 cublasLtMatmul must stay TN";
    int32_t mode_attr = i == LT_A ? CUBLASLT_MATMUL_DESC_A_SCALE_MODE : CUBLASLT_MATMUL_DESC_B_SCALE_MODE;
    if (lt_attrs_int(&s->desc, mode_attr, 0) != 0)
        return "block-scaled operand: its scale factors follow its layout";
    if (!mapped)
        return "conjugate of a row-ordered complex operand has no cuBLASLt form";
    return NULL;
}

static void add_operand(const lt_matmul_call *c, const lt_matmul_shadow *s, tf_gemm *g, int i)
{
    tf_operand *o = &g->in[g->nin++];
    const lt_layout *l = &s->l[i];
    bool mapped = lt_op_to_engine(l, s->op[i], s->complex_type, &o->op);
    o->role = i == LT_A ? "A" : "B";
    o->v = lt_layout_view(l, c->ptr[i]);
    o->refuse = operand_refusal(s, i, mapped);
}

static bool beta_zero(const lt_matmul_call *c, const lt_matmul_shadow *s)
{
    if (s->pointer_mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO)
        return true;
    bool host = s->pointer_mode == CUBLASLT_POINTER_MODE_HOST ||
                s->pointer_mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
    if (!host || s->stype == TF_S_NONE || !c->beta)
        return false;
    tf_scalar beta = tf_scalar_load(s->stype, c->beta);
    return tf_scalar_is_zero(s->stype, &beta);
}

lt_described lt_matmul_describe(const lt_matmul_call *c, lt_matmul_shadow *s, tf_gemm *g)
{
    for (int i = 0; i < 4; i++)
        if (!c->lay[i])
            return LT_INVALID;
    if (!c->handle || !c->desc || !c->alpha)
        return LT_INVALID;
    lt_described r = snapshot(c, s);
    if (r != LT_DESCRIBED)
        return r;
    *g = (tf_gemm){ .acc = { .api = "cublasLtMatmul", .stream = TF_STREAM(c->stream) } };
    if (!shapes(s, g))
        return LT_INVALID;
    g->dtype = tf_cuda_dtype_name(s->l[LT_A].type);
    g->complex_type = s->complex_type;
    g->alpha_host = s->pointer_mode == CUBLASLT_POINTER_MODE_HOST && s->stype != TF_S_NONE && s->stype != TF_S_I32;
    if (g->k > 0) {
        add_operand(c, s, g, LT_A);
        add_operand(c, s, g, LT_B);
    }
    tf_access_write(&g->acc, lt_layout_view(&s->l[LT_D], c->ptr[LT_D]));
    if (!beta_zero(c, s)) {
        tf_view cv = lt_layout_view(&s->l[LT_C], c->ptr[LT_C]);
        tf_access_read(&g->acc, tf_view_footprint(&cv));
    }
    lt_matmul_side_access(c, s, &g->acc);
    return LT_DESCRIBED;
}
