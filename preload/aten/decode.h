/* An ATen launch's parameter bytes as exact byte ranges (issue 20): N,
 * the OffsetCalculator's sizes and byte strides, the data pointers, output
 * first. Layouts from abi.h (the one place they live); the kernel's family
 * and element sizes from kernel.h. Pure C over bytes: every check that
 * makes a decode trustworthy is here, so the unit tests can feed it
 * synthetic closures; what does not validate is not decoded. */
#ifndef TF_ATEN_DECODE_H
#define TF_ATEN_DECODE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aten/abi.h"
#include "aten/kernel.h"
#include "view.h"

#define ATEN_MAX_PARAMS 10 /* the most parameters a decoded family has (nll_loss: 10) */

typedef struct aten_iter {
    int nargs;                                 /* operands of this launch (multi-tensor: may exceed the kernel's) */
    int nout;                                  /* the first nout are written */
    int dims;                                  /* 1..ATEN_MAX_DIMS */
    uint32_t size[ATEN_MAX_DIMS];
    uint32_t stride[ATEN_MAX_DIMS][ATEN_MAX_ARGS]; /* bytes, dimension 0 fastest */
    uint64_t data[ATEN_MAX_ARGS];
    uint32_t elem[ATEN_MAX_ARGS];              /* bytes per element: the kernel's, or the launch's dtypes */
    bool exact[ATEN_MAX_ARGS];                 /* elem[a] is the operand's size, not a bound */
    int64_t n;
} aten_iter;

/* The parameter sizes a kernel of this family must have (param_sizes[i]
 * for i < *count); false when the family's layout is not fixed by K. */
bool aten_expected_params(const aten_kernel *k, size_t *sizes, int *count);

/* Whether a launch's parameter sizes are the family's (0 in the expected
 * list: any size): a wheel laid out otherwise fails here first. */
bool aten_params_match(const aten_kernel *k, const size_t *sizes, int nparams);

/* Decodes a launch from its parameters (params[i] points at parameter i,
 * sizes[i] its size). False when anything does not validate: N, dims,
 * divisors (recomputed from the divisor as IntDivider does), strides with
 * N (the largest offset below 2^32, as the kernel computes in 32 bits),
 * parameter sizes. Pointers are the caller's to check (live allocations). */
bool aten_decode(const aten_kernel *k, void *const *params, const size_t *sizes, int nparams, aten_iter *it);
/* The same given the launch's block count (grid x * y * z), which the
 * multi-tensor family needs (its metadata's slots past the launch's
 * blocks are stale); aten_decode passes 0: not decoded there. */
bool aten_decode_blocks(const aten_kernel *k, void *const *params, const size_t *sizes, int nparams, uint64_t blocks,
                        aten_iter *it);

/* Whether the launch's threads reach every index below N: legacy, grid
 * x block x vt items; vectorized, at least 4 a thread (every version's
 * smallest: the real count is 4, 8 or 16). A launch that may stop short
 * is never taken as writing all of its output. */
bool aten_launch_complete(const aten_kernel *k, const aten_iter *it, unsigned grid, unsigned block);

/* Bytes operand `arg` can touch: [data, data + largest offset + elem). */
tf_range aten_operand_range(const aten_kernel *k, const aten_iter *it, int arg);

/* The output as a view when it is written exactly and densely enough to
 * say so (one element size known, the offsets a matrix or batch of
 * matrices with no gaps inside rows); false: it may leave gaps, so it is
 * only a "may write" of aten_operand_range. */
bool aten_output_view(const aten_kernel *k, const aten_iter *it, tf_view *out);

/* A plain copy whose output is dense and whose input is the same elements
 * transposed (batched: the transposed pair innermost, one batch dimension
 * outside), as views dst(i,j) = src(j,i). False for any other copy (a
 * slice, a broadcast, another permutation). */
bool aten_transpose(const aten_kernel *k, const aten_iter *it, tf_view *src, tf_view *dst);

#endif
