/* The slab pool of pool.h. */
#include <stdalign.h>
#include <stdlib.h>

#include "pool.h"

#define PER_SLAB 64

/* Objects start at this alignment after the slab's link, as malloc's would. */
#define ALIGN alignof(max_align_t)
#define ROUND(n) (((n) + ALIGN - 1) / ALIGN * ALIGN)

void *pool_take(tf_pool *p, size_t size)
{
    if (!p->free) {
        size_t step = ROUND(size < sizeof(void *) ? sizeof(void *) : size);
        char *slab = malloc(ROUND(sizeof(void *)) + PER_SLAB * step);
        if (!slab)
            return NULL;
        *(void **)slab = p->slabs;
        p->slabs = slab;
        for (int i = PER_SLAB - 1; i >= 0; i--)
            pool_give(p, slab + ROUND(sizeof(void *)) + (size_t)i * step);
    }
    void *obj = p->free;
    p->free = *(void **)obj;
    return obj;
}

void pool_free(tf_pool *p)
{
    while (p->slabs) {
        void *slab = p->slabs;
        p->slabs = *(void **)slab;
        free(slab);
    }
    p->free = NULL;
}
