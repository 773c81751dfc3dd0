/* The hooks that keep the shadows (shadow_slots.h) and the reads of them
 * the rest of lt/ makes (descriptors.h).
 *
 * Shadows are kept from creation only while something is pending (or
 * learning may want the next matmul described): PyTorch makes, sets and destroys five descriptors
 * around every cublasLtMatmul, and with nothing pending that matmul passes
 * through unread. A descriptor made otherwise (nothing pending, inside
 * another library call) has no shadow until one is asked for, and is then
 * read back from the library (rebuild.c). While no slot is in use, set and
 * destroy jump straight to the real function; otherwise they keep an
 * existing shadow current or free it, at any depth, so that no shadow
 * outlives its descriptor or misses a change. */
#include <stdint.h>
#include <string.h>

#include "lt/descriptors.h"
#include "lt/rebuild.h"
#include "lt/shadow_slots.h"
#include "core/state.h"
#include "tables/hooks.h"

bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out)
{
    if (lt_slot_get((int)kind, desc, out))
        return true;
    lt_rebuild(kind, desc);
    return lt_slot_get((int)kind, desc, out) != 0;
}

void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = lt_slot_version((int)kinds[i], descs[i]);
        if (!out[i] && descs[i]) {
            lt_rebuild(kinds[i], descs[i]);
            out[i] = lt_slot_version((int)kinds[i], descs[i]);
        }
    }
}

/* Shadows are made at creation while a matmul may need one soon. */
static bool tracking(void)
{
    return pl_active() && (atomic_load_explicit(&pl_pending_now, memory_order_acquire) != 0 || pl_learn_wants_gemm());
}

/* Create/Init/SetAttribute/Destroy of the four cuBLASLt descriptor kinds:
 * the real call first, then its shadow, so a value the library rejects is
 * never recorded. Init_internal is what the header's inline *Init helpers
 * call for descriptors living in the program's own memory. */
/* Each kind's creation arguments, written straight into the claimed slot
 * (in id order: each is an append). */
typedef struct created { int32_t i32[2]; uint64_t rows, cols; int64_t ld; } created;

/* One attribute appended whole (the set is empty or ends below id). */
static void put(lt_attrs *a, int32_t id, uint64_t v, uint32_t size)
{
    lt_attr *x = &a->a[a->n++];
    uint64_t w[2] = { v, 0 };
    x->id = id;
    x->size = size;
    memcpy(x->v, w, sizeof w);
}

/* Little-endian: the low bytes of v are the value at its width. */
static void fill_matmul(lt_attrs *a, const void *arg)
{
    const created *c = arg;
    put(a, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, (uint32_t)c->i32[0], 4);
    put(a, CUBLASLT_MATMUL_DESC_SCALE_TYPE, (uint32_t)c->i32[1], 4);
}

static void fill_layout(lt_attrs *a, const void *arg)
{
    const created *c = arg;
    put(a, CUBLASLT_MATRIX_LAYOUT_TYPE, (uint32_t)c->i32[0], 4);
    put(a, CUBLASLT_MATRIX_LAYOUT_ROWS, c->rows, 8);
    put(a, CUBLASLT_MATRIX_LAYOUT_COLS, c->cols, 8);
    put(a, CUBLASLT_MATRIX_LAYOUT_LD, (uint64_t)c->ld, 8);
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "put stores a value's low bytes first");
_Static_assert(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE < CUBLASLT_MATMUL_DESC_SCALE_TYPE &&
                   CUBLASLT_MATRIX_LAYOUT_TYPE < CUBLASLT_MATRIX_LAYOUT_ROWS &&
                   CUBLASLT_MATRIX_LAYOUT_ROWS < CUBLASLT_MATRIX_LAYOUT_COLS &&
                   CUBLASLT_MATRIX_LAYOUT_COLS < CUBLASLT_MATRIX_LAYOUT_LD,
               "creation arguments are appended in id order");

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

/* Runs the real call; on success, AFTER records what it made. Untracked,
 * a shadow left at the new descriptor's address (one made in place by
 * Init, whose memory the program reused) is freed; with no slot in use
 * the hook is a tail call. */
#define LT_TRACKED(NAME, CALL, DESC, AFTER)                      \
    TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);                       \
    bool tracked = tracking();                                   \
    if (!tracked && !lt_slot_any())                              \
        return CALL;                                             \
    cublasStatus_t st = TF_PASS(CALL);                           \
    if (st == CUBLAS_STATUS_SUCCESS && tracked)                  \
        AFTER;                                                   \
    else if (st == CUBLAS_STATUS_SUCCESS)                        \
        lt_slot_forget(DESC);                                    \
    return st

/* Nothing to do for a descriptor call: no slot in use and no shadow to
 * make (nested, or nothing pending and no learning). Read inline, before
 * anything else, so such a call is a few instructions and a tail call; the
 * rest is out of line. Errs only towards the slow path, which decides
 * exactly. */
static inline bool lt_quiet(void)
{
    return !lt_slot_any() &&
           (pl_depth > 0 || (atomic_load_explicit(&pl_pending_now, memory_order_acquire) == 0 && !pl_learn_wants_gemm()));
}

#define LT_CREATE_HOOK(NAME, PARAMS, ARGS, DESC, AFTER)                  \
    static TF_SLOW_PATH cublasStatus_t slow_##NAME PARAMS                \
    {                                                                    \
        LT_TRACKED(NAME, real ARGS, DESC, AFTER);                        \
    }                                                                    \
    cublasStatus_t NAME PARAMS                                           \
    {                                                                    \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                               \
        if (real && lt_quiet())                                          \
            return real ARGS;                                            \
        return slow_##NAME ARGS;                                         \
    }

LT_CREATE_HOOK(cublasLtMatmulDescCreate, (cublasLtMatmulDesc_t * d, cublasComputeType_t c, cudaDataType_t s),
               (d, c, s), *d, track_matmul(*d, c, s))
LT_CREATE_HOOK(cublasLtMatmulDescInit_internal,
               (cublasLtMatmulDesc_t d, size_t size, cublasComputeType_t c, cudaDataType_t s), (d, size, c, s), d,
               track_matmul(d, c, s))
LT_CREATE_HOOK(cublasLtMatrixLayoutCreate,
               (cublasLtMatrixLayout_t * d, cudaDataType t, uint64_t rows, uint64_t cols, int64_t ld),
               (d, t, rows, cols, ld), *d, track_layout(*d, t, rows, cols, ld))
LT_CREATE_HOOK(cublasLtMatrixLayoutInit_internal,
               (cublasLtMatrixLayout_t d, size_t size, cudaDataType t, uint64_t rows, uint64_t cols, int64_t ld),
               (d, size, t, rows, cols, ld), d, track_layout(d, t, rows, cols, ld))
LT_CREATE_HOOK(cublasLtMatmulPreferenceCreate, (cublasLtMatmulPreference_t * d), (d), *d, track_pref(*d))
LT_CREATE_HOOK(cublasLtMatmulPreferenceInit_internal, (cublasLtMatmulPreference_t d, size_t size), (d, size), d,
               track_pref(d))
LT_CREATE_HOOK(cublasLtMatrixTransformDescCreate, (cublasLtMatrixTransformDesc_t * d, cudaDataType s), (d, s), *d,
               track_transform(*d, s))
LT_CREATE_HOOK(cublasLtMatrixTransformDescInit_internal,
               (cublasLtMatrixTransformDesc_t d, size_t size, cudaDataType s), (d, size, s), d,
               track_transform(d, s))

/* A set reaches an existing shadow whoever makes it (a descriptor with
 * none is read back whole when asked for). */
#define LT_SET_HOOK(NAME, T, A)                                              \
    static TF_SLOW_PATH cublasStatus_t slow_##NAME(T d, A attr, const void *buf, size_t size) \
    {                                                                        \
        TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);                               \
        cublasStatus_t st = TF_PASS(real(d, attr, buf, size));               \
        if (st == CUBLAS_STATUS_SUCCESS)                                     \
            lt_slot_set(d, (int32_t)attr, buf, size);                        \
        return st;                                                           \
    }                                                                        \
    cublasStatus_t NAME(T d, A attr, const void *buf, size_t size)           \
    {                                                                        \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);                                   \
        if (real && !lt_slot_any())                                          \
            return real(d, attr, buf, size);                                 \
        return slow_##NAME(d, attr, buf, size);                              \
    }

/* Forgotten before the real destroy, whoever destroys it: once the memory
 * is free, a new descriptor may take the same address. */
#define LT_DESTROY_HOOK(NAME, T)                        \
    static TF_SLOW_PATH cublasStatus_t slow_##NAME(T d) \
    {                                                   \
        TF_REAL_OR(NAME, TF_MISSING_CUBLASLT);          \
        if (d)                                          \
            lt_slot_forget(d);                          \
        return real(d);                                 \
    }                                                   \
    cublasStatus_t NAME(T d)                            \
    {                                                   \
        pl_fn_##NAME real = TF_REAL_KNOWN(NAME);        \
        if (real && !lt_slot_any())                     \
            return real(d);                             \
        return slow_##NAME(d);                          \
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
