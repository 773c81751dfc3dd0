/* ATen's torch.cat / torch.stack kernels (abi_cat.h) as an ATen kernel:
 * the name parsed into the family ATEN_FAM_CAT, and a launch decoded into
 * what it reads (each input's footprint: its elements, or the hull of a
 * strided input's) and writes (the output region each input lands in,
 * consecutive inputs' regions joined: exact views where the region is one,
 * else a may-write of its footprint). Pure C over strings and bytes
 * (unit-tested); the caller checks every range against live allocations. */
#ifndef TF_ATEN_CAT_H
#define TF_ATEN_CAT_H
#include <stdbool.h>
#include <stddef.h>

#include "aten/decode.h"
#include "aten/kernel.h"
#include "view.h"

typedef struct aten_cat_ops {
    int nreads, nwrites;
    tf_range reads[ATEN_CAT_BATCH];
    tf_view writes[ATEN_CAT_BATCH];
    bool may[ATEN_CAT_BATCH]; /* writes[i] is a may-write of its footprint, not an exact view */
} aten_cat_ops;

/* k filled for a cat instantiation torch 2.15.0 has (else false). */
bool aten_cat_kernel(const char *demangled, aten_kernel *k);

/* The launch's reads and writes, grid.y its inputs; false when anything
 * does not validate (dims, concatDim, counts, sizes that do not make an
 * input's nElements, offsets past the kernel's 32 bits, null pointers, a
 * grid or block of another shape than ATen's). */
bool aten_cat_decode(const aten_kernel *k, void *const *params, const unsigned grid[3], const unsigned block[3],
                     aten_cat_ops *ops);

/* At most max reads and writes: past max, reads are joined (touching
 * ones, then the nearest: a wider read is only more cautious) and writes
 * become one may-write over all of them. */
void aten_cat_fit(aten_cat_ops *ops, int max);

#endif
