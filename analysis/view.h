/* Matrix views: how cuBLAS sees a matrix in memory (column-major), and the
 * byte ranges they touch. Everything the engine reasons about is a view or a
 * range, so the fold algebra never needs a CUDA type. */
#ifndef TF_VIEW_H
#define TF_VIEW_H
#include <stdbool.h>
#include <stdint.h>

typedef struct tf_range { uint64_t lo, hi; } tf_range; /* [lo, hi) bytes */

typedef struct tf_view {
    uint64_t addr;   /* element (0,0) of batch 0 */
    uint32_t elem;   /* bytes per element */
    int64_t rows;    /* as stored, before any op */
    int64_t cols;
    int64_t ld;      /* elements between consecutive columns */
    int64_t batch;   /* >= 1 */
    int64_t stride;  /* elements between consecutive batches */
} tf_view;

/* Where a sub-view starts inside its parent: row, column, batch; and, for a
 * batched sub-view of an unbatched parent (batches stacked inside one
 * matrix), how many rows and columns each batch steps. */
typedef struct tf_offset { int64_t i0, j0, b0, di, dj; } tf_offset;

tf_view tf_view_dense(uint64_t addr, uint64_t bytes); /* a plain byte range as a view */
/* Inline: every described call asks these a few dozen times. */
static inline bool tf_view_empty(const tf_view *v)
{
    return v->rows == 0 || v->cols == 0;
}

static inline tf_range tf_view_footprint(const tf_view *v)
{
    tf_range r = {v->addr, v->addr};
    if (tf_view_empty(v))
        return r;
    uint64_t last = (uint64_t)(v->batch - 1) * (uint64_t)v->stride +
                    (uint64_t)(v->cols - 1) * (uint64_t)v->ld + (uint64_t)v->rows;
    r.hi = v->addr + last * v->elem;
    return r;
}

static inline bool tf_range_overlaps(tf_range a, tf_range b)
{
    return a.lo < b.hi && b.lo < a.hi;
}

static inline bool tf_range_contains(tf_range outer, tf_range inner)
{
    return outer.lo <= inner.lo && inner.hi <= outer.hi;
}
/* Whether v is a shape we can reason about: sizes not negative, ld at
 * least the rows, its footprint not wrapping the address space. */
bool tf_view_valid_general(const tf_view *v);
/* Inline for the common shape (one batch, sizes below 2^28 elements of at
 * most 64 bytes, an address below 2^63), whose footprint is below 2^63
 * bytes and cannot wrap: only ld needs checking. Every producer checks its
 * source and destination, and the general check was 50 instructions. */
static inline bool tf_view_valid(const tf_view *v)
{
    const uint64_t small = (uint64_t)1 << 28;
    if (v->batch == 1 && v->stride >= 0 && v->elem - 1u < 64u && (uint64_t)v->rows < small &&
        (uint64_t)v->cols < small && (uint64_t)v->ld < small && v->addr >> 63 == 0)
        return v->ld >= (v->rows > 0 ? v->rows : 1);
    return tf_view_valid_general(v);
}
/* True when every element of `sub` is an element of `parent` at the same
 * (i,j,b) grid: same element size and leading dimension, offset on the grid,
 * sizes inside, batch strides equal -- or, when the parent has one batch,
 * every batch of `sub` inside it at a constant step. Fills *at. */
bool tf_view_subview(const tf_view *parent, const tf_view *sub, tf_offset *at);
/* tf_view_covers past its first test. */
bool tf_view_covers_general(const tf_view *w, const tf_view *v);
/* True when writing `w` overwrites every element of `v`. Inline up to the
 * same view again (a buffer rewritten whole, as each new transpose into it
 * does), which needs no arithmetic. */
static inline bool tf_view_covers(const tf_view *w, const tf_view *v)
{
    if (w->addr == v->addr && w->elem == v->elem && w->rows == v->rows && w->cols == v->cols && w->ld == v->ld &&
        w->batch == v->batch && (w->batch == 1 || w->stride == v->stride))
        return true;
    return tf_view_covers_general(w, v);
}
uint64_t tf_view_bytes(const tf_view *v); /* bytes of the elements themselves */

#endif
