/* Finding the real functions behind the hooks.
 *
 * RTLD_NEXT finds what the program itself would have bound to; libraries the
 * program (or the CUDA runtime) dlopen'ed with RTLD_LOCAL are invisible to it,
 * so we then ask the already-loaded library by soname. Nothing is loaded that
 * was not loaded already. Pointers are cached per entry; a race resolves the
 * same pointer twice, which is harmless. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "tables/hooks.h"
#include "tables/real_dlsym.h"

typedef struct pl_fn_entry {
    const char *name;
    const char *lib;
    void *wrapper; /* NULL for USE entries */
} pl_fn_entry;

/* Hooking deprecated entry points (cudaGetDriverEntryPoint) is deliberate. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static const pl_fn_entry pl_fns[TF_ID_COUNT] = {
#define HOOK(lib, ret, name, params) [TF_ID_##name] = { #name, TF_LIB_##lib, (void *)&name },
#define USE(lib, ret, name, params) [TF_ID_##name] = { #name, TF_LIB_##lib, NULL },
#include "tables/hooks_list.h"
#undef HOOK
#undef USE
};
#pragma GCC diagnostic pop

void *_Atomic pl_real_fns[TF_ID_COUNT];

bool pl_hook_is_ours(const void *fn)
{
    if (!fn)
        return false;
    for (int i = 0; i < TF_ID_COUNT; i++)
        if (pl_fns[i].wrapper == fn)
            return true;
    return false;
}

static void *resolve(const pl_fn_entry *f)
{
    void *p = pl_real_dlsym(RTLD_NEXT, f->name);
    if (p && p != f->wrapper)
        return p;
    void *h = dlopen(f->lib, RTLD_NOLOAD | RTLD_LAZY);
    if (!h)
        return NULL;
    p = pl_real_dlsym(h, f->name);
    dlclose(h); /* only drops the reference RTLD_NOLOAD took */
    return p == f->wrapper ? NULL : p;
}

void *pl_real_resolve(pl_fn_id id)
{
    void *p = resolve(&pl_fns[id]);
    if (p)
        atomic_store_explicit(&pl_real_fns[id], p, memory_order_release);
    return p;
}

void pl_real_offer(pl_fn_id id, void *fn)
{
    void *none = NULL;
    if (fn && !pl_hook_is_ours(fn))
        atomic_compare_exchange_strong(&pl_real_fns[id], &none, fn);
}

int pl_hook_by_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < TF_ID_COUNT; i++)
        if (pl_fns[i].wrapper && strcmp(pl_fns[i].name, name) == 0)
            return i;
    return -1;
}

/* By the exported name the dynamic linker knows the pointer by: that is how
 * one symbol with versions and per-thread variants maps to exactly one of
 * our entries. -2 when the pointer is not an exported symbol at all. */
int pl_hook_by_real(const void *fn)
{
    Dl_info info;
    if (!fn || pl_hook_is_ours(fn))
        return -1;
    if (!dladdr(fn, &info) || !info.dli_sname || info.dli_saddr != fn)
        return -2;
    int id = pl_hook_by_name(info.dli_sname);
    if (id < 0)
        return -1;
    pl_real_offer(id, (void *)fn);
    return pl_real_get(id) == fn ? id : -1;
}

void *pl_hook_wrapper(int id) { return pl_fns[id].wrapper; }
