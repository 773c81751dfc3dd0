/* cuBLASLt descriptor contents as transfold keeps them: the attribute sets
 * a program set, the matrix layouts they decode to, the shadows that hold
 * both per descriptor, and descriptors built again from a shadow. */
#ifndef PL_LT_DESCRIPTORS_H
#define PL_LT_DESCRIPTORS_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calls/describe.h"
#include "tables/hooks.h"

#include "lt/attrs.h"

/* Whether a matmul descriptor attribute holds a device pointer (an
 * epilogue or FP8 scale/amax pointer): the fold cache keys on its
 * alignment, the snapshot notes whether any is set. */
bool lt_attr_is_pointer(int32_t id);

/* cuBLASLt matrix layouts in the engine's column-major terms.
 *
 * A layout is rows x cols of the matrix as the operation sees it before
 * its op. ORDER_COL stores element (i,j) at i + j*ld: the column-major
 * view is rows x cols, ld. ORDER_ROW stores it at i*ld + j: in memory that
 * is the column-major matrix of its transpose, a cols x rows view with the
 * same ld. So for a row-ordered operand read with op X, the engine sees
 * X composed with one transpose: N reads the view transposed (engine T),
 * T reads the view as stored (engine N), and C reads the view conjugated
 * but not transposed, which no engine op expresses (fine for real types,
 * where C is T). Folding swaps the layout's rows and cols in both orders:
 * the source of a transpose has the transposed shape, whichever way the
 * order maps it to memory. */
typedef struct lt_layout {
    cudaDataType type;
    uint32_t elem;     /* 0: a type transfold does not size */
    int32_t order;
    int64_t rows, cols, ld;
    int32_t batch;
    int64_t stride;
    bool plain;        /* column or row order, interleaved, strided batches, sized type */
} lt_layout;

lt_layout lt_layout_decode(const lt_attrs *a);
bool lt_layout_row(const lt_layout *l);
/* The column-major view of the layout's memory at p. */
tf_view lt_layout_view(const lt_layout *l, const void *p);

/* The engine op for a layout read with cuBLAS op `op`; false when none
 * expresses it. */
bool lt_op_to_engine(const lt_layout *l, cublasOperation_t op, bool complex_type, tf_op *out);
/* The cuBLAS op that reads the engine op `op` from a layout of this order. */
bool lt_op_from_engine(const lt_layout *l, tf_op op, bool complex_type, cublasOperation_t *out);

/* The attributes of a layout over the source of a transpose: rows and cols
 * swapped, the source's ld and (for batches that move) batch stride. */
void lt_layout_folded(lt_attrs *a, const lt_layout *l, int64_t ld, int64_t stride);

/* The scalar type of alpha and beta for a descriptor's scale type. */
pl_stype lt_scale_stype(int64_t scale);
bool lt_op_valid(int64_t op);

/* Shadow descriptors: what transfold knows of each cuBLASLt descriptor the
 * program made, keyed by the descriptor's address.
 *
 * Created by Create/Init, updated by each successful SetAttribute, dropped
 * by Destroy. Descriptors made before transfold was active, or inside
 * another library call, have no shadow; callers treat them as unknown. */
typedef enum lt_kind { LT_MATMUL, LT_LAYOUT, LT_PREF, LT_TRANSFORM } lt_kind;

/* Copies the shadow out; false when there is none of that kind or it is
 * opaque. */
bool lt_shadow_get(lt_kind kind, const void *desc, lt_attrs *out);
/* The version of each of n shadows (kinds[i], descs[i]): a number unique to
 * its current content across all shadows and all time, changed by every
 * Create/Init and SetAttribute; 0 when lt_shadow_get would fail. Decoded
 * snapshots keyed on versions stay valid while the versions do. */
void lt_shadow_versions(int n, const lt_kind *kinds, const void *const *descs, uint64_t *out);
/* A number that changes whenever any shadow does (reset, set, forget): a
 * caller that read it before checking versions may skip the check while
 * it stays the same. Inline: every steady-state matmul reads it. The
 * shadows live in shadow_slots.h's pool; the hooks that fill them are in
 * shadow.c. */
extern _Atomic uint64_t lt_shadow_epoch_now; /* shadow_slots.c */
static inline uint64_t lt_shadow_epoch(void)
{
    return atomic_load_explicit(&lt_shadow_epoch_now, memory_order_acquire);
}

/* Real cuBLASLt descriptors made from attribute sets: an equivalent of a
 * program's descriptor (its shadow), or one with a change (edit a copy of
 * the set first). Used for folded matmuls, heuristic preferences and the
 * deep copies a deferred transform replays with. */
/* Creates the descriptor and sets every recorded attribute. On failure
 * nothing is left behind and *out is NULL. */
cublasStatus_t lt_build(lt_kind kind, const lt_attrs *a, void **out);
void lt_unbuild(lt_kind kind, void *d);

/* A deep copy of a program's descriptor, from its shadow; NULL when it
 * has none (or d is NULL). */
void *lt_clone(lt_kind kind, const void *d);

#endif
