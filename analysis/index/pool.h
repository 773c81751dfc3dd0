/* Fixed-size objects carved from 64 KiB slabs of pages that transfold
 * maps itself: taking and giving back are O(1) and, once the slabs hold the
 * most objects ever live at once, map nothing. So a program that makes and
 * frees buffers in a loop costs no allocation here, and the C heap the
 * program uses holds none of the objects transfold tracks. The memory is
 * bounded by that peak and returned at pool_free (exit). No locking of its
 * own: the engine's lock covers every use. */
#ifndef TF_POOL_H
#define TF_POOL_H
#include <stddef.h>

/* Under AddressSanitizer an object given back is poisoned until taken
 * again: slabs are not malloc chunks, so ASan would otherwise miss a use
 * after rec_discard or alloc_remove. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POOL_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define POOL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POOL_POISON(p, n) ((void)(p), (void)(n))
#define POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct tf_pool {
    void *free;        /* objects given back, linked through their first word */
    void *slabs;       /* every slab, linked through its first word */
    size_t slab_bytes; /* each slab's size (set by the first take) */
    size_t obj_bytes;  /* each object's size, rounded (set by the first take) */
} tf_pool;

/* An object of size bytes (the same size at every call on one pool), its
 * contents undefined; NULL when memory runs out. */
void *pool_take(tf_pool *p, size_t size);

static inline void pool_give(tf_pool *p, void *obj)
{
    *(void **)obj = p->free;
    p->free = obj;
    POOL_POISON(obj, p->obj_bytes);
}

/* Frees every slab: every object taken from p is gone. */
void pool_free(tf_pool *p);

#endif
