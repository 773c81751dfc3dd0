/* The provenance table: every device allocation we saw being made. Deferral
 * is only legal inside memory the host cannot touch behind our back, so a
 * transpose's operands must lie in allocations of a device kind. */
#include <stdlib.h>

#include "internal.h"

void alloc_add(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind)
{
    tf_alloc_entry *a = alloc_take(e, base); /* an address reused without a free we saw */
    free(a);
    a = calloc(1, sizeof *a);
    if (!a)
        return;
    a->base = base;
    a->size = size;
    a->kind = kind;
    HASH_ADD(hh, e->allocs, base, sizeof a->base, a);
}

tf_alloc_entry *alloc_take(tf_engine *e, uint64_t base)
{
    tf_alloc_entry *a = NULL;
    HASH_FIND(hh, e->allocs, &base, sizeof base, a);
    if (a)
        HASH_DEL(e->allocs, a);
    return a;
}

/* Linear in the number of live allocations; only transposes ask, and they
 * are rare next to launches and GEMMs. */
const tf_alloc_entry *alloc_find(const tf_engine *e, tf_range r)
{
    const tf_alloc_entry *a, *tmp;
    HASH_ITER(hh, e->allocs, a, tmp) {
        tf_range ar = {a->base, a->base + a->size};
        if (tf_range_contains(ar, r))
            return a;
    }
    return NULL;
}

void alloc_clear(tf_engine *e)
{
    tf_alloc_entry *a, *tmp;
    HASH_ITER(hh, e->allocs, a, tmp) {
        HASH_DEL(e->allocs, a);
        free(a);
    }
}

/* The whole allocation holding r, or r itself when none is known. */
tf_range alloc_range(const tf_engine *e, tf_range r)
{
    const tf_alloc_entry *a = alloc_find(e, r);
    return a ? (tf_range){a->base, a->base + a->size} : r;
}
