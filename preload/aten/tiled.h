/* ATen's tiled transpose copy (abi_tiled.h) as an ATen kernel: its name
 * parsed into the family ATEN_FAM_TILED, its six parameters decoded into
 * the same iteration a TensorIterator copy has (output dense along the
 * source's rows), so aten_transpose, the operand ranges and the output
 * view treat both copies alike; and whether a launch's grid and blocks
 * reach every tile. Pure C over strings and bytes (unit-tested). */
#ifndef TF_ATEN_TILED_H
#define TF_ATEN_TILED_H
#include <stdbool.h>
#include <stddef.h>

#include "aten/kernel.h"

struct aten_iter;
/* k filled for a tiled instantiation torch 2.15.0 has (else false). */
bool aten_tiled_kernel(const char *demangled, aten_kernel *k);
/* The launch as the copy's iteration (N included); false when its shape does
 * not validate (rows overlapping, offsets past 32 bits, a null pointer). */
bool aten_tiled_decode(const aten_kernel *k, void *const *params, struct aten_iter *it);
/* Whether every tile is reached: grid.x x tile covers the width, grid.y x
 * tile the height (or grid_stride), blocks of (32 / access, 8 x access). */
bool aten_tiled_complete(const aten_kernel *k, const struct aten_iter *it, const unsigned grid[3],
                         const unsigned block[3]);
#endif
