/* OffsetCalculator decode: dimension 0 is the fastest, strides are bytes,
 * offsets are uint32 (ATen splits a launch that could overflow them). */
#include "offset_calc.h"

#include <string.h>

bool aten_oc_decode(aten_oc *oc, const void *p, int K)
{
    const unsigned char *b = p;
    int32_t dims;
    memcpy(&dims, b + ATEN_OC_DIMS, 4);
    if (dims < 0 || dims > ATEN_MAX_DIMS || K < 1 || K > ATEN_MAX_ARGS)
        return false;
    oc->dims = dims;
    oc->nargs = K;
    for (int d = 0; d < dims; d++) {
        aten_int_divider div;
        memcpy(&div, b + ATEN_OC_SIZES + 12 * d, 12);
        oc->sizes[d] = div.divisor;
        for (int k = 0; k < K; k++)
            memcpy(&oc->strides[d][k], b + ATEN_OC_STRIDES + 4 * (d * K + k), 4);
    }
    return true;
}

void aten_oc_offsets(const aten_oc *oc, uint32_t idx, uint32_t *offsets)
{
    for (int k = 0; k < oc->nargs; k++)
        offsets[k] = 0;
    for (int d = 0; d < oc->dims; d++) {
        uint32_t size = oc->sizes[d] ? oc->sizes[d] : 1;
        uint32_t q = idx / size, r = idx - q * size;
        for (int k = 0; k < oc->nargs; k++)
            offsets[k] += r * oc->strides[d][k];
        idx = q;
    }
}

void aten_oc_walk_start(aten_oc_walk *w, const aten_oc *oc)
{
    w->oc = oc;
    memset(w->index, 0, sizeof w->index);
    memset(w->offsets, 0, sizeof w->offsets);
}

void aten_oc_walk_next(aten_oc_walk *w)
{
    const aten_oc *oc = w->oc;
    for (int d = 0; d < oc->dims; d++) {
        for (int k = 0; k < oc->nargs; k++)
            w->offsets[k] += oc->strides[d][k];
        if (++w->index[d] < oc->sizes[d])
            return;
        for (int k = 0; k < oc->nargs; k++)
            w->offsets[k] -= w->index[d] * oc->strides[d][k];
        w->index[d] = 0;
    }
}

void aten_oc_extent(const aten_oc *oc, int k, uint32_t N, uint32_t elem, uint64_t *lo, uint64_t *hi)
{
    uint64_t top = 0, left = N ? N - 1 : 0;
    *lo = 0;
    *hi = N ? elem : 0;
    if (!N)
        return;
    /* The last element's index in each dimension bounds the others' unless
     * N covers the full box: take the box, clipped to N's outermost digit. */
    for (int d = 0; d < oc->dims; d++) {
        uint64_t size = oc->sizes[d] ? oc->sizes[d] : 1;
        uint64_t span = left >= size ? size - 1 : left;
        top += span * oc->strides[d][k];
        left /= size;
    }
    *hi = top + elem;
}
