/* Exact byte ranges a twin reads, merged into runs as they come: element
 * reads that follow one another in memory make one range. Reads are added
 * buffer by buffer (aten_runs_buffer between them); when a buffer's runs
 * outgrow the caller's room, that buffer's answer becomes the extent of
 * what was read from it (a superset inside the same allocation, which the
 * race detector may over-report but never under-report). Header-only; the
 * reduce, multi-tensor, softmax, norm and loss families use it. */
#ifndef ATEN_READ_RUNS_H
#define ATEN_READ_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simcuda.h"

typedef struct aten_runs {
    simcuda_range *out;
    size_t max, n;
    size_t first;      /* the current buffer's first range */
    bool collapsed;    /* the current buffer is one extent now */
    uintptr_t lo, hi;  /* the current buffer's extent */
} aten_runs;

static inline aten_runs aten_runs_start(simcuda_range *out, size_t max)
{
    return (aten_runs){out, max, 0, 0, false, UINTPTR_MAX, 0};
}

/* The reads that follow come from another buffer. */
static inline void aten_runs_buffer(aten_runs *r)
{
    r->first = r->n;
    r->collapsed = false;
    r->lo = UINTPTR_MAX;
    r->hi = 0;
}

static inline void aten_runs_add(aten_runs *r, const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p;
    if (!p || !bytes)
        return;
    if (a < r->lo)
        r->lo = a;
    if (a + bytes > r->hi)
        r->hi = a + bytes;
    if (r->collapsed) {
        r->out[r->first] = (simcuda_range){(const void *)r->lo, r->hi - r->lo};
        return;
    }
    if (r->n > r->first) {
        simcuda_range *last = &r->out[r->n - 1];
        uintptr_t b = (uintptr_t)last->base;
        if (a >= b && a <= b + last->bytes) { /* overlaps or follows the last run */
            if (a + bytes > b + last->bytes)
                last->bytes = a + bytes - b;
            return;
        }
    }
    if (r->n < r->max) {
        r->out[r->n++] = (simcuda_range){p, bytes};
    } else if (r->first < r->max) { /* out of room: this buffer becomes its extent */
        r->collapsed = true;
        r->n = r->first + 1;
        r->out[r->first] = (simcuda_range){(const void *)r->lo, r->hi - r->lo};
    }
}

static inline size_t aten_runs_count(const aten_runs *r) { return r->n; }

#endif
