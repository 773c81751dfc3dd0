/* TensorIterator's OffsetCalculator<K> (preload/aten/abi.h), decoded once
 * a launch into sizes and byte strides, then walked element by element. */
#ifndef ATEN_OFFSET_CALC_H
#define ATEN_OFFSET_CALC_H

#include <stdbool.h>
#include <stdint.h>

#include "abi.h"

#define ATEN_MAX_ARGS 8

typedef struct aten_oc {
    int dims;
    int nargs;
    uint32_t sizes[ATEN_MAX_DIMS];
    uint32_t strides[ATEN_MAX_DIMS][ATEN_MAX_ARGS];
} aten_oc;

/* Reads an OffsetCalculator<K> at p (K <= ATEN_MAX_ARGS); false when its
 * dims are out of range. */
bool aten_oc_decode(aten_oc *oc, const void *p, int K);

/* The byte offset of every argument for element idx. */
void aten_oc_offsets(const aten_oc *oc, uint32_t idx, uint32_t *offsets);

/* An odometer over elements 0..N-1, keeping every argument's offset. */
typedef struct aten_oc_walk {
    const aten_oc *oc;
    uint32_t index[ATEN_MAX_DIMS];
    uint32_t offsets[ATEN_MAX_ARGS];
} aten_oc_walk;

void aten_oc_walk_start(aten_oc_walk *w, const aten_oc *oc);
void aten_oc_walk_next(aten_oc_walk *w);

/* The lowest and one past the highest byte argument k touches over
 * elements 0..N-1 with elements of `elem` bytes (strides are unsigned). */
void aten_oc_extent(const aten_oc *oc, int k, uint32_t N, uint32_t elem, uint64_t *lo, uint64_t *hi);

#endif
