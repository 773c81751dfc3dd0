/* The slab pool of pool.h. Slabs are mapped pages, not C heap, so the
 * program's heap does not hold (or consolidate around) transfold's
 * objects. */
#include <stdalign.h>
#include <sys/mman.h>

#include "index/pool.h"

#define SLAB_BYTES (64 * 1024)

/* Objects start at this alignment after the slab's link, as malloc's would. */
#define ALIGN alignof(max_align_t)
#define ROUND(n) (((n) + ALIGN - 1) / ALIGN * ALIGN)
#define HEAD ROUND(sizeof(void *))

void *pool_take(tf_pool *p, size_t size)
{
    if (!p->free) {
        size_t step = ROUND(size < sizeof(void *) ? sizeof(void *) : size);
        size_t per = (SLAB_BYTES - HEAD) / step;
        p->slab_bytes = per ? SLAB_BYTES : HEAD + step; /* an object bigger than a slab: one a slab */
        p->obj_bytes = step;
        char *slab = mmap(NULL, p->slab_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (slab == MAP_FAILED)
            return NULL;
        *(void **)slab = p->slabs;
        p->slabs = slab;
        for (size_t i = per ? per : 1; i-- > 0;)
            pool_give(p, slab + HEAD + i * step);
    }
    void *obj = p->free;
    POOL_UNPOISON(obj, p->obj_bytes);
    p->free = *(void **)obj;
    return obj;
}

void pool_free(tf_pool *p)
{
    while (p->slabs) {
        void *slab = p->slabs;
        p->slabs = *(void **)slab;
        POOL_UNPOISON(slab, p->slab_bytes); /* the pages may be mapped again for the C heap */
        munmap(slab, p->slab_bytes);
    }
    p->free = NULL;
}
