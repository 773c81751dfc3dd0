/* A hash map from uint64_t keys (addresses, ids) to non-NULL pointers:
 * open addressing with linear probing, kept at most a quarter full (64
 * bytes of slots a key at worst: linear probing's runs grow fast with the
 * load, and aligned addresses cluster), removal by
 * backward shift (no tombstones). A lookup, insertion or removal probes
 * O(1) slots expected, however many keys are held; the probe is inline.
 * It maps pages only to grow (doubling, amortised O(1)), never otherwise,
 * and never shrinks: its size follows the most keys it ever held. No
 * locking of its own: the engine's lock covers every use. */
#ifndef TF_UMAP_H
#define TF_UMAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tf_uslot {
    uint64_t key;
    void *val; /* NULL: a free slot */
} tf_uslot;

typedef struct tf_umap {
    tf_uslot *slot; /* NULL until the first insertion */
    size_t mask;    /* slots - 1 (a power of two) */
    int shift;      /* 64 - log2(slots): the hash's top bits index */
    size_t n;
} tf_umap;

/* Fibonacci hashing: the product's top bits depend on every key bit, so
 * addresses aligned to 256 bytes or more still spread. */
static inline size_t umap_home(const tf_umap *m, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> m->shift);
}

static inline void *umap_get(const tf_umap *m, uint64_t key)
{
    if (!m->n)
        return NULL;
    for (size_t i = umap_home(m, key);; i = (i + 1) & m->mask) {
        const tf_uslot *s = &m->slot[i];
        if (!s->val || s->key == key)
            return s->val;
    }
}

/* Maps key to val (not NULL), replacing what it mapped to; false when the
 * map had to grow and memory ran out (nothing changed then). */
bool umap_put(tf_umap *m, uint64_t key, void *val);
/* Unmaps key; what it mapped to, or NULL. */
void *umap_del(tf_umap *m, uint64_t key);
/* Frees the slots (not what they point to); the map is empty again. */
void umap_free(tf_umap *m);

#endif
