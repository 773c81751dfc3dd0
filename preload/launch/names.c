/* Growable open-addressing maps from handles to names and kernels. Written
 * at registration and module load, read by launches that need them: O(1) a
 * lookup however many kernels the program has registered. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch/names.h"

typedef struct slot { const void *key; const void *value; } slot;
typedef struct ptr_map { pthread_mutex_t mutex; slot *slots; size_t cap, used; } ptr_map;

static ptr_map names = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
static ptr_map kernels = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
static ptr_map modules = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
static ptr_map memos = { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 };
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A fork while another thread holds a map's lock must not leave the child
 * unable to launch. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&names.mutex);
    pthread_mutex_lock(&kernels.mutex);
    pthread_mutex_lock(&modules.mutex);
    pthread_mutex_lock(&memos.mutex);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&memos.mutex);
    pthread_mutex_unlock(&modules.mutex);
    pthread_mutex_unlock(&kernels.mutex);
    pthread_mutex_unlock(&names.mutex);
}

static void fork_child(void)
{
    pthread_mutex_init(&names.mutex, NULL);
    pthread_mutex_init(&kernels.mutex, NULL);
    pthread_mutex_init(&modules.mutex, NULL);
    pthread_mutex_init(&memos.mutex, NULL);
}

static void register_fork_handlers(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

static size_t slot_of(const slot *tab, size_t n, const void *key)
{
    size_t i = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull & (n - 1);
    while (tab[i].key && tab[i].key != key)
        i = (i + 1) & (n - 1);
    return i;
}

static int grow(ptr_map *m)
{
    size_t n = m->cap ? m->cap * 2 : 1024;
    slot *tab = calloc(n, sizeof *tab);
    if (!tab)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            tab[slot_of(tab, n, m->slots[i].key)] = m->slots[i];
    free(m->slots);
    m->slots = tab;
    m->cap = n;
    return 0;
}

static void put_locked(ptr_map *m, const void *key, const void *value)
{
    if ((m->used + 1) * 2 > m->cap && grow(m) != 0)
        return;
    size_t i = slot_of(m->slots, m->cap, key);
    if (!m->slots[i].key)
        m->used++;
    m->slots[i] = (slot){ key, value };
}

static const void *get_locked(const ptr_map *m, const void *key)
{
    return m->cap ? m->slots[slot_of(m->slots, m->cap, key)].value : NULL;
}

static void put(ptr_map *m, const void *key, const void *value)
{
    if (!key || !value)
        return;
    pthread_once(&fork_once, register_fork_handlers);
    pthread_mutex_lock(&m->mutex);
    put_locked(m, key, value);
    pthread_mutex_unlock(&m->mutex);
}

static const void *get(ptr_map *m, const void *key)
{
    if (!key)
        return NULL;
    pthread_mutex_lock(&m->mutex);
    const void *v = get_locked(m, key);
    pthread_mutex_unlock(&m->mutex);
    return v;
}

void pl_name_set(const void *handle, const char *name) { put(&names, handle, name); }
const char *pl_name_get(const void *handle) { return get(&names, handle); }
void pl_kernel_set(const void *host_fn, const void *kernel) { put(&kernels, host_fn, kernel); }
const void *pl_kernel_get(const void *host_fn) { return get(&kernels, host_fn); }

void pl_name_alias(const void *alias, const void *handle)
{
    put(&names, alias, pl_name_get(handle));
}

void pl_name_set_copy(const void *handle, const char *name)
{
    const char *old = pl_name_get(handle);
    if (!handle || !name || (old && strcmp(old, name) == 0))
        return;
    put(&names, handle, strdup(name)); /* kept for the process: handles may be reused */
}

void pl_name_memo_set(const char *name, const void *value) { put(&memos, name, value); }
const void *pl_name_memo_get(const char *name) { return get(&memos, name); }

void pl_module_set(const void *handle, uint64_t identity)
{
    put(&modules, handle, (const void *)(uintptr_t)identity);
}

uint64_t pl_module_get(const void *handle)
{
    return (uint64_t)(uintptr_t)get(&modules, handle);
}
