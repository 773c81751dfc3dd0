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
#ifndef TF_LT_LAYOUT_H
#define TF_LT_LAYOUT_H
#include "describe.h"
#include "hooks.h"
#include "lt_attrs.h"

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

#endif
