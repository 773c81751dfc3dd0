/* Building descriptors from attribute sets. Every real call runs with the
 * depth raised: the library may call functions we hook. */
#include "lt_build.h"
#include "state.h"

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

void *lt_clone(lt_kind kind, const void *d)
{
    lt_attrs a;
    void *copy = NULL;
    if (d && lt_shadow_get(kind, d, &a))
        lt_build(kind, &a, &copy);
    return copy;
}
