/* Context-local storage ({C693336E-1121-DF11-A8C3-68F355D89593}, no size
 * slot): the runtime keeps its per-context state in the driver, under a key
 * of its own, with a callback for when the context is destroyed. NULL
 * names the calling thread's current context. */
#include "export.h"

#include <string.h>

typedef void (*cls_dtor)(CUcontext ctx, void *key, void *value);

struct cls_entry {
    CUcontext ctx;
    void *key, *value;
    cls_dtor dtor;
    struct cls_entry *next;
};

static struct cls_entry *entries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static CUcontext resolve(CUcontext ctx)
{
    if (!ctx)
        cuCtxGetCurrent(&ctx);
    return ctx;
}

/* The link that points at (ctx, key)'s entry, or at the list's end. */
static struct cls_entry **find(CUcontext ctx, void *key)
{
    struct cls_entry **e = &entries;
    while (*e && ((*e)->ctx != ctx || (*e)->key != key))
        e = &(*e)->next;
    return e;
}

static CUresult cls_put(CUcontext ctx, void *key, void *value, cls_dtor dtor)
{
    if (!(ctx = resolve(ctx)))
        return CUDA_ERROR_INVALID_CONTEXT;
    pthread_mutex_lock(&lock);
    struct cls_entry **e = find(ctx, key);
    if (!*e && (*e = calloc(1, sizeof **e))) {
        (*e)->ctx = ctx;
        (*e)->key = key;
    }
    if (*e) {
        (*e)->value = value;
        (*e)->dtor = dtor;
    }
    CUresult r = *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    pthread_mutex_unlock(&lock);
    return r;
}

static CUresult cls_delete(CUcontext ctx, void *key)
{
    ctx = resolve(ctx);
    pthread_mutex_lock(&lock);
    struct cls_entry **e = find(ctx, key), *gone = *e;
    if (gone)
        *e = gone->next;
    pthread_mutex_unlock(&lock);
    free(gone);
    return CUDA_SUCCESS;
}

/* A key never stored answers CUDA_ERROR_INVALID_HANDLE: the runtime takes
 * that as "no state yet" and creates it. */
static CUresult cls_get(void **value, CUcontext ctx, void *key)
{
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    ctx = resolve(ctx);
    pthread_mutex_lock(&lock);
    struct cls_entry *e = *find(ctx, key);
    if (e)
        *value = e->value;
    pthread_mutex_unlock(&lock);
    return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* Entries leave the list before their callbacks run, outside the lock: a
 * callback may call back into the storage. */
void sim_cls_context_gone(CUcontext ctx)
{
    pthread_mutex_lock(&lock);
    struct cls_entry *gone = NULL, **e = &entries;
    while (*e) {
        struct cls_entry *x = *e;
        if (x->ctx == ctx) {
            *e = x->next;
            x->next = gone;
            gone = x;
        } else {
            e = &x->next;
        }
    }
    pthread_mutex_unlock(&lock);
    while (gone) {
        struct cls_entry *next = gone->next;
        if (gone->dtor)
            gone->dtor(gone->ctx, gone->key, gone->value);
        free(gone);
        gone = next;
    }
}

static CUresult unknown_cls(void) { return sim_export_unknown_slot(&sim_export_cls); }

static void *slots[4] = {(void *)cls_put, (void *)cls_delete, (void *)cls_get, (void *)unknown_cls};
const struct sim_export sim_export_cls = {"c693336e-1121-df11-a8c3-68f355d89593", slots};
