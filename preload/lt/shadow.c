/* The hooks that keep the shadows (shadow_slots.h) and the reads of them
 * the rest of lt/ makes (descriptors.h). A hook inside another
 * intercepted call, or with the layer off, jumps straight to the real
 * function: cuBLAS 13's GEMMs make and destroy their Lt descriptors on
 * every call (the stand-in's do too). */
#include <stdint.h>
#include <string.h>

#include "lt/descriptors.h"
#include "lt/shadow_slots.h"
#include "core/state.h"
#include "tables/hooks.h"

bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out)
{
    return lt_slot_get((int)kind, desc, out) != 0;
}

void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out)
{
    for (int i = 0; i < n; i++)
        out[i] = lt_slot_version((int)kinds[i], descs[i]);
}

/* Create/Init/SetAttribute/Destroy of the four cuBLASLt descriptor kinds:
 * the real call first, then its shadow, so a value the library rejects is
 * never recorded. Init_internal is what the header's inline *Init helpers
 * call for descriptors living in the program's own memory. */
/* Each kind's creation arguments, written straight into the claimed slot
 * (in id order: each is an append). */
typedef struct created { int32_t i32[2]; uint64_t rows, cols; int64_t ld; } created;

static void fill_matmul(lt_attrs *a, const void *arg)
{
    const created *c = arg;
    lt_attrs_set_i32(a, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, c->i32[0]);
    lt_attrs_set_i32(a, CUBLASLT_MATMUL_DESC_SCALE_TYPE, c->i32[1]);
}

static void fill_layout(lt_attrs *a, const void *arg)
{
    const created *c = arg;
    uint32_t t = (uint32_t)c->i32[0];
    lt_attrs_set(a, CUBLASLT_MATRIX_LAYOUT_TYPE, &t, sizeof t);
    lt_attrs_set_u64(a, CUBLASLT_MATRIX_LAYOUT_ROWS, c->rows);
    lt_attrs_set_u64(a, CUBLASLT_MATRIX_LAYOUT_COLS, c->cols);
    lt_attrs_set_i64(a, CUBLASLT_MATRIX_LAYOUT_LD, c->ld);
}

static void fill_transform(lt_attrs *a, const void *arg)
{
    lt_attrs_set_i32(a, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, ((const created *)arg)->i32[0]);
}

static void fill_none(lt_attrs *a, const void *arg) { (void)a; (void)arg; }

static void track(lt_kind kind, const void *desc, lt_slot_fill fill, created c)
{
    if (desc)
        lt_slot_reset((int)kind, desc, fill, &c);
}

static void track_matmul(const void *desc, cublasComputeType_t compute, cudaDataType_t scale)
{
    track(LT_MATMUL, desc, fill_matmul, (created){ .i32 = { (int32_t)compute, (int32_t)scale } });
}

static void track_layout(const void *desc, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld)
{
    track(LT_LAYOUT, desc, fill_layout, (created){ .i32 = { (int32_t)type }, .rows = rows, .cols = cols, .ld = ld });
}

static void track_transform(const void *desc, cudaDataType scale)
{
    track(LT_TRANSFORM, desc, fill_transform, (created){ .i32 = { (int32_t)scale } });
}

static void track_pref(const void *desc) { track(LT_PREF, desc, fill_none, (created){ 0 }); }

/* Runs the real call; on success, AFTER records what it made. Untracked
 * (nested, or the layer off) it is a tail call: the real function's own
 * nested calls find the layer inactive too, so the depth need not rise. */
#define LT_TRACKED(NAME, CALL, AFTER)                            \
    TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);                       \
    if (!pl_active())                                            \
        return CALL;                                             \
    cublasStatus_t st = TF_PASS(CALL);                           \
    if (st == CUBLAS_STATUS_SUCCESS)                             \
        AFTER;                                                   \
    return st

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t c, cudaDataType_t s)
{
    LT_TRACKED(cublasLtMatmulDescCreate, real(d, c, s), track_matmul(*d, c, s));
}

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t d, size_t size, cublasComputeType_t c,
                                               cudaDataType_t s)
{
    LT_TRACKED(cublasLtMatmulDescInit_internal, real(d, size, c, s), track_matmul(d, c, s));
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *d, cudaDataType t, uint64_t rows, uint64_t cols,
                                          int64_t ld)
{
    LT_TRACKED(cublasLtMatrixLayoutCreate, real(d, t, rows, cols, ld), track_layout(*d, t, rows, cols, ld));
}

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t d, size_t size, cudaDataType t,
                                                 uint64_t rows, uint64_t cols, int64_t ld)
{
    LT_TRACKED(cublasLtMatrixLayoutInit_internal, real(d, size, t, rows, cols, ld),
               track_layout(d, t, rows, cols, ld));
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *d)
{
    LT_TRACKED(cublasLtMatmulPreferenceCreate, real(d), track_pref(*d));
}

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t d, size_t size)
{
    LT_TRACKED(cublasLtMatmulPreferenceInit_internal, real(d, size), track_pref(d));
}

cublasStatus_t cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *d, cudaDataType s)
{
    LT_TRACKED(cublasLtMatrixTransformDescCreate, real(d, s), track_transform(*d, s));
}

cublasStatus_t cublasLtMatrixTransformDescInit_internal(cublasLtMatrixTransformDesc_t d, size_t size,
                                                        cudaDataType s)
{
    LT_TRACKED(cublasLtMatrixTransformDescInit_internal, real(d, size, s), track_transform(d, s));
}

#define LT_SET_HOOK(NAME, T, A)                                                                  \
    cublasStatus_t NAME(T d, A attr, const void *buf, size_t size)                               \
    {                                                                                            \
        LT_TRACKED(NAME, real(d, attr, buf, size), lt_slot_set(d, (int32_t)attr, buf, size));  \
    }

/* Forgotten before the real destroy: once the memory is free, a new
 * descriptor may take the same address. */
#define LT_DESTROY_HOOK(NAME, T)                    \
    cublasStatus_t NAME(T d)                        \
    {                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);      \
        if (!pl_active())                           \
            return real(d);                         \
        if (d)                                      \
            lt_slot_forget(d);                      \
        return TF_PASS(real(d));                    \
    }

LT_SET_HOOK(cublasLtMatmulDescSetAttribute, cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t)
LT_SET_HOOK(cublasLtMatrixLayoutSetAttribute, cublasLtMatrixLayout_t, cublasLtMatrixLayoutAttribute_t)
LT_SET_HOOK(cublasLtMatmulPreferenceSetAttribute, cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t)
LT_SET_HOOK(cublasLtMatrixTransformDescSetAttribute, cublasLtMatrixTransformDesc_t,
            cublasLtMatrixTransformDescAttributes_t)

LT_DESTROY_HOOK(cublasLtMatmulDescDestroy, cublasLtMatmulDesc_t)
LT_DESTROY_HOOK(cublasLtMatrixLayoutDestroy, cublasLtMatrixLayout_t)
LT_DESTROY_HOOK(cublasLtMatmulPreferenceDestroy, cublasLtMatmulPreference_t)
LT_DESTROY_HOOK(cublasLtMatrixTransformDescDestroy, cublasLtMatrixTransformDesc_t)

/* Here, beside the shadow it reads: descriptors.c, below, knows no shadow. */
void *lt_clone(lt_kind kind, const void *d)
{
    lt_attrs a;
    void *copy = NULL;
    if (d && lt_shadow_get(kind, d, &a))
        lt_build(kind, &a, &copy);
    return copy;
}
