/* The provenance table: every device allocation we saw being made. Deferral
 * is only legal inside memory the host cannot touch behind our back, so a
 * transpose's operands must lie in allocations of a device kind.
 *
 * Indexed by base in an interval tree (itree.h): every lookup is O(log n) in
 * the live allocations. Allocations seen are normally disjoint, but one
 * freed by a route we did not see may still be listed under a newer one
 * overlapping it, so lookups do not assume disjoint entries. */
#include <stdlib.h>

#include "internal.h"

#define ENTRY(n) TF_CONTAINER(n, tf_alloc_entry, node)

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
    a->node.lo = base;
    a->node.hi = base + size;
    itree_insert(&e->allocs, &a->node);
}

tf_alloc_entry *alloc_at(const tf_engine *e, uint64_t base)
{
    tf_inode *n = itree_floor(&e->allocs, base);
    return n && n->lo == base ? ENTRY(n) : NULL;
}

tf_alloc_entry *alloc_take(tf_engine *e, uint64_t base)
{
    tf_alloc_entry *a = alloc_at(e, base);
    if (a)
        itree_remove(&e->allocs, &a->node);
    return a;
}

/* An allocation holding all of r: one whose range reaches from at or below
 * r.lo to at or above r.hi, so it overlaps [r.lo - 1, r.lo + 1) (which also
 * admits the one ending exactly at r.lo, for an empty r there). */
const tf_alloc_entry *alloc_find(const tf_engine *e, tf_range r)
{
    uint64_t lo = r.lo ? r.lo - 1 : 0, hi = r.lo + 1 ? r.lo + 1 : r.lo;
    tf_icursor at = ITREE_START;
    for (tf_inode *n; (n = itree_next_overlap(&e->allocs, lo, hi, &at));) {
        tf_range ar = {n->lo, n->hi};
        if (tf_range_contains(ar, r))
            return ENTRY(n);
    }
    return NULL;
}

void alloc_clear(tf_engine *e)
{
    while (e->allocs.root) {
        tf_alloc_entry *a = ENTRY(e->allocs.root);
        itree_remove(&e->allocs, &a->node);
        free(a);
    }
}
