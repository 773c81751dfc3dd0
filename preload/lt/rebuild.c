/* Shadows rebuilt from the library: a descriptor made while no shadow was
 * kept (nothing pending, so a hook only passed it on; or made inside
 * another library call) is read back through its GetAttribute entry point
 * the first time a shadow of it is asked for. What it holds is compared
 * with a fresh descriptor made from the same creation arguments, and only
 * the attributes that differ are recorded, besides those arguments: the
 * same set the hooks would have recorded (an attribute set to its default
 * value is left out, which builds the same descriptor). Anything that
 * cannot be read, or an attribute too large to keep, leaves an opaque
 * shadow: unknown, as a descriptor with no shadow was before. */
#include <string.h>

#include "lt/descriptors.h"
#include "lt/rebuild.h"
#include "lt/shadow_slots.h"
#include "core/state.h"
#include "tables/hooks.h"

enum { IDS = 64, BIG = 64 }; /* ids tried (the 13.x headers end at 38); bytes compared */
#define TOO_BIG ((size_t)-1)

/* Reads attribute id of d into buf (BIG bytes); its size, 0 when the
 * library has no such attribute, or TOO_BIG when it does not fit. */
static size_t get(lt_kind kind, const void *d, int32_t id, void *buf)
{
    size_t need = 0, got = 0;
    cublasStatus_t st = CUBLAS_STATUS_NOT_SUPPORTED;
    pl_depth++;
    for (int pass = 0; pass < 2; pass++) {
        void *b = pass ? buf : NULL;
        size_t n = pass ? need : 0;
        size_t *w = pass ? &got : &need;
        switch (kind) {
        case LT_MATMUL: st = TF_REAL(cublasLtMatmulDescGetAttribute)((void *)d, id, b, n, w); break;
        case LT_LAYOUT: st = TF_REAL(cublasLtMatrixLayoutGetAttribute)((void *)d, id, b, n, w); break;
        case LT_PREF: st = TF_REAL(cublasLtMatmulPreferenceGetAttribute)((void *)d, id, b, n, w); break;
        case LT_TRANSFORM: st = TF_REAL(cublasLtMatrixTransformDescGetAttribute)((void *)d, id, b, n, w); break;
        }
        if (st != CUBLAS_STATUS_SUCCESS || need == 0 || need > BIG)
            break;
    }
    pl_depth--;
    if (st == CUBLAS_STATUS_SUCCESS && need > BIG)
        return TOO_BIG;
    return st == CUBLAS_STATUS_SUCCESS && got == need ? need : 0;
}

static bool getter_known(lt_kind kind)
{
    switch (kind) {
    case LT_MATMUL: return TF_REAL(cublasLtMatmulDescGetAttribute) != NULL;
    case LT_LAYOUT: return TF_REAL(cublasLtMatrixLayoutGetAttribute) != NULL;
    case LT_PREF: return TF_REAL(cublasLtMatmulPreferenceGetAttribute) != NULL;
    case LT_TRANSFORM: return TF_REAL(cublasLtMatrixTransformDescGetAttribute) != NULL;
    }
    return false;
}

/* The attributes Create takes, in id order. */
static int creation_ids(lt_kind kind, int32_t ids[4])
{
    switch (kind) {
    case LT_MATMUL:
        ids[0] = CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, ids[1] = CUBLASLT_MATMUL_DESC_SCALE_TYPE;
        return 2;
    case LT_LAYOUT:
        ids[0] = CUBLASLT_MATRIX_LAYOUT_TYPE, ids[1] = CUBLASLT_MATRIX_LAYOUT_ROWS;
        ids[2] = CUBLASLT_MATRIX_LAYOUT_COLS, ids[3] = CUBLASLT_MATRIX_LAYOUT_LD;
        return 4;
    case LT_TRANSFORM:
        ids[0] = CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE;
        return 1;
    case LT_PREF:
        return 0;
    }
    return 0;
}

static bool is_creation(int32_t id, const int32_t *ids, int n)
{
    for (int i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* The set the hooks would have recorded for d; false when it cannot be
 * read. */
static bool read_back(lt_kind kind, const void *d, lt_attrs *out)
{
    int32_t ids[4];
    int n = creation_ids(kind, ids);
    unsigned char v[BIG], f[BIG];
    lt_attrs_clear(out);
    for (int i = 0; i < n; i++) {
        size_t size = get(kind, d, ids[i], v);
        if (!size || size == TOO_BIG)
            return false;
        lt_attrs_set(out, ids[i], v, size);
    }
    void *fresh = NULL;
    if (lt_build(kind, out, &fresh) != CUBLAS_STATUS_SUCCESS)
        return false;
    for (int32_t id = 0; id < IDS && !out->opaque; id++) {
        if (is_creation(id, ids, n))
            continue;
        size_t size = get(kind, d, id, v);
        if (size == TOO_BIG)
            out->opaque = true; /* cannot be compared, so cannot be known */
        else if (size && (get(kind, fresh, id, f) != size || memcmp(v, f, size) != 0))
            lt_attrs_set(out, id, v, size); /* over LT_ATTR_BYTES: opaque */
    }
    lt_unbuild(kind, fresh);
    return true;
}

static void fill_copy(lt_attrs *a, const void *arg) { lt_attrs_copy(a, arg); }
static void fill_opaque(lt_attrs *a, const void *arg)
{
    (void)arg;
    a->opaque = true;
}

void lt_rebuild(lt_kind kind, const void *d)
{
    if (!d || !getter_known(kind) || lt_slot_exists(d))
        return;
    lt_attrs a;
    bool ok = read_back(kind, d, &a);
    lt_slot_reset((int)kind, d, ok ? fill_copy : fill_opaque, &a);
}
