/* The shadow table, under a lock of its own so descriptor traffic
 * (frameworks make descriptors per call) never waits on the engine. A hash
 * by descriptor address: O(1) a lookup however many descriptors are live. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lt/descriptors.h"
#include "core/state.h"
#include "tables/hooks.h"

/* Keys are descriptor addresses: a multiplicative hash is enough, and far
 * cheaper than uthash's default on the per-call lookups. */
#define HASH_FUNCTION(keyptr, keylen, hashv)                              \
    do {                                                                  \
        uint64_t lt_k_;                                                   \
        memcpy(&lt_k_, (keyptr), sizeof lt_k_);                           \
        (hashv) = (unsigned)((lt_k_ * 0x9E3779B97F4A7C15ull) >> 32);      \
        (void)(keylen);                                                   \
    } while (0)
#include <uthash.h>

#include "lt/locks.h"
#include "lt/descriptors.h"

typedef struct lt_shadow {
    const void *desc;
    lt_kind kind;
    lt_attrs attrs;
    uint64_t version;
    UT_hash_handle hh;
} lt_shadow;

static lt_shadow *lt_shadows;
static uint64_t lt_last_version; /* under LT_LOCK_SHADOW */
_Atomic uint64_t lt_shadow_epoch_now; /* bumped by every change to any shadow */

static lt_shadow *find(const void *desc)
{
    lt_shadow *s = NULL;
    HASH_FIND_PTR(lt_shadows, &desc, s);
    return s;
}

void lt_shadow_reset(lt_kind kind, const void *desc, const lt_attrs *initial)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (!s && (s = malloc(sizeof *s))) {
        s->desc = desc;
        HASH_ADD_PTR(lt_shadows, desc, s);
    }
    if (s) {
        s->kind = kind;
        lt_attrs_copy(&s->attrs, initial);
        s->version = ++lt_last_version;
    }
    atomic_fetch_add_explicit(&lt_shadow_epoch_now, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

void lt_shadow_set(const void *desc, int32_t id, const void *buf, size_t size)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (s) {
        lt_attrs_set(&s->attrs, id, buf, size);
        s->version = ++lt_last_version;
    }
    atomic_fetch_add_explicit(&lt_shadow_epoch_now, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

void lt_shadow_forget(const void *desc)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = find(desc);
    if (s) {
        HASH_DEL(lt_shadows, s);
        free(s);
    }
    atomic_fetch_add_explicit(&lt_shadow_epoch_now, 1, memory_order_release);
    lt_unlock(LT_LOCK_SHADOW);
}

bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out)
{
    lt_lock(LT_LOCK_SHADOW);
    lt_shadow *s = desc ? find(desc) : NULL;
    bool ok = s && s->kind == kind && !s->attrs.opaque;
    if (ok)
        lt_attrs_copy(out, &s->attrs);
    lt_unlock(LT_LOCK_SHADOW);
    return ok;
}

void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out)
{
    lt_lock(LT_LOCK_SHADOW);
    for (int i = 0; i < n; i++) {
        lt_shadow *s = descs[i] ? find(descs[i]) : NULL;
        out[i] = s && s->kind == kinds[i] && !s->attrs.opaque ? s->version : 0;
    }
    lt_unlock(LT_LOCK_SHADOW);
}

/* Create/Init/SetAttribute/Destroy of the four cuBLASLt descriptor kinds:
 * the real call first, then its shadow, so a value the library rejects is
 * never recorded. Init_internal is what the header's inline *Init helpers
 * call for descriptors living in the program's own memory. */
static void track(lt_kind kind, const void *desc, const lt_attrs *initial)
{
    if (desc)
        lt_shadow_reset(kind, desc, initial);
}

static void track_matmul(const void *desc, cublasComputeType_t compute, cudaDataType_t scale)
{
    lt_attrs a;
    lt_attrs_clear(&a);
    lt_attrs_set_i32(&a, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, (int32_t)compute);
    lt_attrs_set_i32(&a, CUBLASLT_MATMUL_DESC_SCALE_TYPE, (int32_t)scale);
    track(LT_MATMUL, desc, &a);
}

static void track_layout(const void *desc, cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld)
{
    lt_attrs a;
    lt_attrs_clear(&a);
    uint32_t t = (uint32_t)type;
    lt_attrs_set(&a, CUBLASLT_MATRIX_LAYOUT_TYPE, &t, sizeof t);
    lt_attrs_set_u64(&a, CUBLASLT_MATRIX_LAYOUT_ROWS, rows);
    lt_attrs_set_u64(&a, CUBLASLT_MATRIX_LAYOUT_COLS, cols);
    lt_attrs_set_i64(&a, CUBLASLT_MATRIX_LAYOUT_LD, ld);
    track(LT_LAYOUT, desc, &a);
}

static void track_transform(const void *desc, cudaDataType scale)
{
    lt_attrs a;
    lt_attrs_clear(&a);
    lt_attrs_set_i32(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, (int32_t)scale);
    track(LT_TRANSFORM, desc, &a);
}

static void track_pref(const void *desc)
{
    lt_attrs a;
    lt_attrs_clear(&a);
    track(LT_PREF, desc, &a);
}

/* Runs the real call; on success, AFTER records what it made. `tracked`
 * is read before the call raises the depth. */
#define LT_TRACKED(NAME, CALL, AFTER)                            \
    TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);                       \
    bool tracked = pl_active();                                  \
    cublasStatus_t st = TF_PASS(CALL);                           \
    if (tracked && st == CUBLAS_STATUS_SUCCESS)                  \
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
        LT_TRACKED(NAME, real(d, attr, buf, size), lt_shadow_set(d, (int32_t)attr, buf, size));  \
    }

/* Forgotten before the real destroy: once the memory is free, a new
 * descriptor may take the same address. */
#define LT_DESTROY_HOOK(NAME, T)                    \
    cublasStatus_t NAME(T d)                        \
    {                                               \
        TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);      \
        if (pl_active() && d)                       \
            lt_shadow_forget(d);                    \
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
