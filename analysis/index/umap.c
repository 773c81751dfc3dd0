/* The open-addressing map of umap.h. Slots are mapped pages, not C heap:
 * a table of many keys is megabytes, and malloc would hand it out and take
 * it back through the program's own heap (freeing a large chunk also moves
 * glibc's mmap threshold), so what the program's allocations cost would
 * depend on how much transfold tracks. */
#include <sys/mman.h>

#include "index/umap.h"

static size_t bytes_of(size_t slots)
{
    return slots * sizeof(tf_uslot);
}

#define MIN_SLOTS 256 /* one 4 KiB page */

static tf_uslot *slot_for(tf_umap *m, uint64_t key)
{
    size_t i = umap_home(m, key);
    while (m->slot[i].val && m->slot[i].key != key)
        i = (i + 1) & m->mask;
    return &m->slot[i];
}

/* Rehashes into twice the slots (MIN_SLOTS at first). */
static bool grow(tf_umap *m)
{
    size_t slots = m->slot ? 2 * (m->mask + 1) : MIN_SLOTS;
    tf_uslot *fresh = mmap(NULL, bytes_of(slots), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED)
        return false; /* zero-filled otherwise: every slot free */
    tf_umap old = *m;
    m->slot = fresh;
    m->mask = slots - 1;
    m->shift = 64 - __builtin_ctzll(slots);
    for (size_t i = 0; old.slot && i <= old.mask; i++)
        if (old.slot[i].val)
            *slot_for(m, old.slot[i].key) = old.slot[i];
    if (old.slot)
        munmap(old.slot, bytes_of(old.mask + 1));
    return true;
}

bool umap_put(tf_umap *m, uint64_t key, void *val)
{
    if (4 * (m->n + 1) > (m->slot ? m->mask + 1 : 0) && !grow(m))
        return false;
    tf_uslot *s = slot_for(m, key);
    if (!s->val)
        m->n++;
    *s = (tf_uslot){key, val};
    return true;
}

/* Backward shift: each later entry of the probe run moves into the hole
 * unless its home lies cyclically after the hole (moving it would put it
 * before its home, where lookups never look). */
void *umap_del(tf_umap *m, uint64_t key)
{
    if (!m->n)
        return NULL;
    tf_uslot *s = slot_for(m, key);
    void *val = s->val;
    if (!val)
        return NULL;
    size_t hole = (size_t)(s - m->slot);
    for (size_t j = (hole + 1) & m->mask; m->slot[j].val; j = (j + 1) & m->mask) {
        size_t home = umap_home(m, m->slot[j].key);
        if (((j - home) & m->mask) >= ((j - hole) & m->mask)) {
            m->slot[hole] = m->slot[j];
            hole = j;
        }
    }
    m->slot[hole].val = NULL;
    m->n--;
    return val;
}

void umap_free(tf_umap *m)
{
    if (m->slot)
        munmap(m->slot, bytes_of(m->mask + 1));
    *m = (tf_umap){0};
}
