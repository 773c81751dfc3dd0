/* Device memory is host memory. Every allocation is kept in a table sorted
 * by address so that frees of unknown pointers fail as on a GPU and interior
 * pointers can be attributed (cuPointerGetAttribute, cuMemGetAddressRange). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Matches the alignment cudaMalloc guarantees. */
#define SIM_ALIGN 256

/* pooled: made by a stream-ordered allocation (the default pool's);
 * graph: made by one while its stream was capturing (memory.c). */
struct sim_block { uintptr_t base; size_t size; enum sim_mem_kind kind; bool pooled, graph; };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_block *blocks;
static size_t count, capacity, in_use;
/* The default pool's bytes in use and their high-water mark (pool.c). */
static size_t pool_in_use, pool_high;

/* Index of the first block whose base is > p. */
static size_t upper_bound(uintptr_t p)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (blocks[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool insert(uintptr_t base, size_t size, enum sim_mem_kind kind)
{
    if (count == capacity) {
        size_t cap = capacity ? capacity * 2 : 64;
        struct sim_block *nb = realloc(blocks, cap * sizeof *nb);
        if (!nb)
            return false;
        blocks = nb;
        capacity = cap;
    }
    size_t i = upper_bound(base);
    memmove(blocks + i + 1, blocks + i, (count - i) * sizeof *blocks);
    blocks[i] = (struct sim_block){base, size, kind, false, false};
    count++;
    in_use += size;
    return true;
}

void *sim_alloc(size_t bytes, enum sim_mem_kind kind)
{
    /* Zero-byte allocations still get a distinct address, as on a GPU. */
    size_t rounded = (bytes + SIM_ALIGN - 1) / SIM_ALIGN * SIM_ALIGN;
    void *p = aligned_alloc(SIM_ALIGN, rounded ? rounded : SIM_ALIGN);
    if (!p)
        return NULL;
    pthread_mutex_lock(&lock);
    bool ok = insert((uintptr_t)p, bytes, kind);
    pthread_mutex_unlock(&lock);
    if (!ok) {
        free(p);
        return NULL;
    }
    return p;
}

CUresult sim_free(void *p, enum sim_mem_kind kind)
{
    pthread_mutex_lock(&lock);
    size_t i = upper_bound((uintptr_t)p);
    /* cuMemFree releases managed memory too; host memory has its own free. */
    enum sim_mem_kind k = i > 0 ? blocks[i - 1].kind : 0;
    bool kind_ok = k == kind || (kind == SIM_MEM_DEVICE && k == SIM_MEM_MANAGED);
    bool found = i > 0 && blocks[i - 1].base == (uintptr_t)p && kind_ok;
    if (found) {
        in_use -= blocks[i - 1].size;
        if (blocks[i - 1].pooled)
            pool_in_use -= blocks[i - 1].size;
        memmove(blocks + i - 1, blocks + i, (count - i) * sizeof *blocks);
        count--;
    }
    pthread_mutex_unlock(&lock);
    if (!found)
        return CUDA_ERROR_INVALID_VALUE;
    free(p);
    return CUDA_SUCCESS;
}

bool sim_lookup(const void *p, void **base, size_t *size, enum sim_mem_kind *kind)
{
    pthread_mutex_lock(&lock);
    size_t i = upper_bound((uintptr_t)p);
    const struct sim_block *b = i > 0 ? &blocks[i - 1] : NULL;
    /* A zero-size block still owns its first byte. */
    bool hit = b && (uintptr_t)p - b->base < (b->size ? b->size : 1);
    if (hit) {
        if (base) *base = (void *)b->base;
        if (size) *size = b->size;
        if (kind) *kind = b->kind;
    }
    pthread_mutex_unlock(&lock);
    return hit;
}

size_t sim_bytes_in_use(void)
{
    pthread_mutex_lock(&lock);
    size_t n = in_use;
    pthread_mutex_unlock(&lock);
    return n;
}

void sim_mark_pooled(const void *p)
{
    pthread_mutex_lock(&lock);
    size_t i = upper_bound((uintptr_t)p);
    if (i > 0 && blocks[i - 1].base == (uintptr_t)p && !blocks[i - 1].pooled) {
        blocks[i - 1].pooled = true;
        pool_in_use += blocks[i - 1].size;
        if (pool_in_use > pool_high)
            pool_high = pool_in_use;
    }
    pthread_mutex_unlock(&lock);
}

void sim_mark_graph(const void *p)
{
    pthread_mutex_lock(&lock);
    size_t i = upper_bound((uintptr_t)p);
    if (i > 0 && blocks[i - 1].base == (uintptr_t)p)
        blocks[i - 1].graph = true;
    pthread_mutex_unlock(&lock);
}

bool sim_graph_owned(const void *p)
{
    pthread_mutex_lock(&lock);
    size_t i = upper_bound((uintptr_t)p);
    bool hit = i > 0 && blocks[i - 1].base == (uintptr_t)p && blocks[i - 1].graph;
    pthread_mutex_unlock(&lock);
    return hit;
}

void sim_pool_usage(size_t *current, size_t *high, bool reset_high)
{
    pthread_mutex_lock(&lock);
    if (reset_high)
        pool_high = pool_in_use;
    if (current) *current = pool_in_use;
    if (high) *high = pool_high;
    pthread_mutex_unlock(&lock);
}
