/* Calls that may read or write device memory transfold does not model: the
 * cuBLAS entry points generated from the header (gen_cublas_hooks.sh).
 * Under `strict` every pending record runs first; under `args` those its
 * pointer arguments point into. A call handed arrays of pointers (in
 * device memory, out of the arguments' reach) runs every record first,
 * whatever the policy. */
#ifndef TF_UNKNOWN_WORK_H
#define TF_UNKNOWN_WORK_H
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

#define TF_UNKNOWN_MAX_PTRS 16

typedef struct pl_unknown {
    tf_access acc;
    uint64_t words[TF_UNKNOWN_MAX_PTRS];
    bool noted;
} pl_unknown;

void pl_unknown_begin(pl_unknown *u, const char *api, uint64_t stream, const void *const *ptrs, int n, bool indirect);
void pl_unknown_end(pl_unknown *u, bool ok);

#endif
