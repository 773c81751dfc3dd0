/* Recognising a transpose in a cublasLtMatrixTransform (rule in
 * lt_transform.h) and checking what the library would reject before any
 * memory is touched, so a deferred call never hides an error. */
#include "lt_shadow.h"
#include "lt_transform.h"
#include "sum.h"

static bool transposes(const lt_transform *x, int i)
{
    return x->has[i] && (lt_layout_row(&x->l[i]) ^ lt_layout_row(&x->l[LT_XC]) ^ (x->op[i] != CUBLAS_OP_N));
}

/* op(X) must have C's logical shape and batch count. */
static bool operand_fits(const lt_transform *x, int i)
{
    const lt_layout *l = &x->l[i], *c = &x->l[LT_XC];
    bool n = x->op[i] == CUBLAS_OP_N;
    return (n ? l->rows : l->cols) == c->rows && (n ? l->cols : l->rows) == c->cols && l->batch == c->batch;
}

static lt_transform_kind read_shadows(const lt_transform_call *c, lt_transform *x)
{
    lt_attrs a;
    if (!lt_shadow_get(LT_TRANSFORM, c->desc, &a))
        return LT_X_UNKNOWN;
    x->op[0] = (cublasOperation_t)lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, CUBLAS_OP_N);
    x->op[1] = (cublasOperation_t)lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, CUBLAS_OP_N);
    x->stype = lt_scale_stype(lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, -1));
    x->host = lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_HOST) ==
              CUBLASLT_POINTER_MODE_HOST;
    for (int i = 0; i < 3; i++) {
        if (i < 2 && !(x->has[i] = c->ptr[i] && c->lay[i]))
            continue;
        if (!lt_shadow_get(LT_LAYOUT, c->lay[i], &a))
            return LT_X_UNKNOWN;
        x->l[i] = lt_layout_decode(&a);
        if (!x->l[i].plain)
            return LT_X_UNKNOWN;
    }
    return LT_X_OK;
}

static lt_transform_kind validate(const lt_transform_call *c, lt_transform *x)
{
    if (!c->handle || !c->desc || !c->lay[LT_XC] || !c->ptr[LT_XC] || !c->alpha || !c->beta)
        return LT_X_INVALID;
    lt_transform_kind k = read_shadows(c, x);
    if (k != LT_X_OK)
        return k;
    if (x->stype == TF_S_NONE || x->stype == TF_S_I32)
        return LT_X_INVALID;
    for (int i = 0; i < 2; i++)
        if (x->has[i] && (!lt_op_valid(x->op[i]) || !operand_fits(x, i)))
            return LT_X_INVALID;
    return LT_X_OK;
}

lt_transform_kind lt_transform_classify(const lt_transform_call *c, lt_transform *x)
{
    *x = (lt_transform){0};
    lt_transform_kind k = validate(c, x);
    if (k != LT_X_OK)
        return k;
    const void *scalars[2] = { c->alpha, c->beta };
    tf_sum sum = { .host = x->host, .stream_usable = true };
    for (int i = 0; i < 2; i++) {
        x->scalar[i] = pl_scalar_load(x->stype, x->host ? scalars[i] : NULL);
        sum.term[i] = (tf_sum_term){ x->has[i], transposes(x, i), pl_scalar_is_zero(x->stype, &x->scalar[i]),
                                     x->l[i].type != x->l[LT_XC].type };
    }
    tf_sum_plan p = tf_sum_classify(&sum);
    x->transpose = p.transpose;
    x->src = p.src;
    x->read[0] = p.read[0];
    x->read[1] = p.read[1];
    x->refuse = p.refuse;
    return LT_X_OK;
}
