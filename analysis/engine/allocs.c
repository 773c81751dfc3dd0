/* The provenance table: every device allocation we saw being made. Deferral
 * is only legal inside memory the host cannot touch behind our back, so a
 * transpose's operands must lie in allocations of a device kind.
 *
 * A page map, as allocators keep, so that no lookup depends on how many
 * allocations are live:
 * - by base, a hash (umap.h): frees and the common lookup (a pointer to the
 *   start of an allocation) are O(1);
 * - by address, per size class: an allocation of size in (2^(L-1), 2^L] is
 *   listed under the (at most two) aligned 2^L-byte granules it overlaps, so
 *   a granule lists at most four disjoint allocations of its class, and an
 *   address is found by one hash probe per size class in use (at most 56).
 * Allocations seen are normally disjoint, but one freed by a route we did
 * not see may still be listed under a newer one overlapping it; lookups do
 * not assume disjoint entries. */
#include "engine/internal.h"

#define MIN_LEVEL 8 /* 256 bytes: cudaMalloc's alignment; smaller ones share it */

typedef struct tf_granule {
    uint64_t key; /* level << 56 | address >> level */
    tf_alloc_entry *head;
} tf_granule;

static int level_of(uint64_t size)
{
    int l = size > 1 ? 64 - __builtin_clzll(size - 1) : 0;
    return l < MIN_LEVEL ? MIN_LEVEL : l > 63 ? 63 : l; /* 2^63 granules: two cover everything */
}

static uint64_t granule_key(int level, uint64_t addr)
{
    return (uint64_t)level << 56 | addr >> level;
}

static tf_granule *granule_find(const tf_engine *e, uint64_t key)
{
    return umap_get(&e->granules, key);
}

/* The granules a's range overlaps at its level: one or two. */
static int granules_of(const tf_alloc_entry *a, uint64_t key[2])
{
    uint64_t last = a->size ? a->base + a->size - 1 : a->base;
    key[0] = granule_key(a->level, a->base);
    key[1] = granule_key(a->level, last);
    return key[1] != key[0] ? 2 : 1;
}

static void link_in(tf_engine *e, tf_alloc_entry *a)
{
    uint64_t key[2];
    int n = granules_of(a, key);
    a->link[0].g = a->link[1].g = NULL;
    for (int i = 0; i < n; i++) {
        tf_granule *g = granule_find(e, key[i]);
        if (!g && (g = pool_take(&e->granule_pool, sizeof *g))) {
            g->key = key[i];
            g->head = NULL;
            if (!umap_put(&e->granules, g->key, g)) {
                pool_give(&e->granule_pool, g);
                g = NULL;
            }
        }
        for (int k = 0; k < 2; k++)
            if (e->empty_granules[k] == g)
                e->empty_granules[k] = NULL;
        if (!g)
            continue; /* out of memory: this half of the range stays unlisted */
        a->link[i].next = g->head;
        a->link[i].prev = NULL;
        if (g->head)
            g->head->link[g->head->link[0].g == g ? 0 : 1].prev = a;
        g->head = a;
        a->link[i].g = g;
    }
    e->levels_used[a->level]++;
}

static void granule_drop(tf_engine *e, tf_granule *g)
{
    umap_del(&e->granules, g->key);
    pool_give(&e->granule_pool, g);
}

/* The two granules emptied last (all an allocation spans) stay listed,
 * empty, until others empty: a program that frees and allocates the same
 * buffer in a loop finds its granules again instead of unlisting and
 * relisting them each time. At most two empty granules are listed, so the
 * table stays bounded by the live allocations. */
static void granule_emptied(tf_engine *e, tf_granule *g)
{
    if (e->empty_granules[1])
        granule_drop(e, e->empty_granules[1]);
    e->empty_granules[1] = e->empty_granules[0];
    e->empty_granules[0] = g;
}

static void link_out(tf_engine *e, tf_alloc_entry *a)
{
    for (int i = 0; i < 2; i++) {
        tf_granule *g = a->link[i].g;
        if (!g)
            continue;
        tf_alloc_entry *prev = a->link[i].prev, *next = a->link[i].next;
        if (prev)
            prev->link[prev->link[0].g == g ? 0 : 1].next = next;
        else
            g->head = next;
        if (next)
            next->link[next->link[0].g == g ? 0 : 1].prev = prev;
        if (!g->head)
            granule_emptied(e, g);
        a->link[i].g = NULL;
    }
    e->levels_used[a->level]--;
}

/* An address reused without a free we saw keeps its entry, relisted for
 * its new size. */
void alloc_add(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind)
{
    e->alloc_gen++;
    tf_alloc_entry *a = alloc_at(e, base);
    if (a) {
        link_out(e, a);
    } else {
        a = pool_take(&e->alloc_pool, sizeof *a);
        if (!a)
            return;
        if (!umap_put(&e->allocs, base, a)) {
            alloc_release(e, a); /* out of memory: the allocation stays unknown */
            return;
        }
        a->base = base;
    }
    a->size = size;
    a->kind = kind;
    a->level = level_of(size);
    link_in(e, a);
}

tf_alloc_entry *alloc_at(const tf_engine *e, uint64_t base)
{
    return umap_get(&e->allocs, base);
}

tf_alloc_entry *alloc_take(tf_engine *e, uint64_t base)
{
    e->alloc_gen++;
    tf_alloc_entry *a = umap_del(&e->allocs, base);
    if (a)
        link_out(e, a);
    return a;
}

static const tf_alloc_entry *containing(const tf_granule *g, tf_range r)
{
    for (const tf_alloc_entry *a = g ? g->head : NULL; a; a = a->link[a->link[0].g == g ? 0 : 1].next)
        if (tf_range_contains((tf_range){a->base, a->base + a->size}, r))
            return a;
    return NULL;
}

/* An allocation holding all of r. Its granule holds r.lo, or, for an
 * empty r at the allocation's very end, r.lo - 1. */
const tf_alloc_entry *alloc_find(const tf_engine *e, tf_range r)
{
    const tf_alloc_entry *a = alloc_at(e, r.lo);
    if (a && tf_range_contains((tf_range){a->base, a->base + a->size}, r))
        return a;
    for (int l = MIN_LEVEL; l < 64; l++) {
        if (!e->levels_used[l])
            continue;
        if ((a = containing(granule_find(e, granule_key(l, r.lo)), r)))
            return a;
        if (r.lo == r.hi && r.lo && (a = containing(granule_find(e, granule_key(l, r.lo - 1)), r)))
            return a;
    }
    return NULL;
}

void alloc_release(tf_engine *e, tf_alloc_entry *a)
{
    pool_give(&e->alloc_pool, a);
}

/* Every entry and granule lives in the pools' slabs. */
void alloc_clear(tf_engine *e)
{
    e->alloc_gen++;
    umap_free(&e->allocs);
    umap_free(&e->granules);
    e->empty_granules[0] = e->empty_granules[1] = NULL;
    memset(e->levels_used, 0, sizeof e->levels_used);
    pool_free(&e->alloc_pool);
    pool_free(&e->granule_pool);
}
