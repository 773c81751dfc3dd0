/* Which kernels are ATen's (aten.h). A kernel counts as ATen's only when
 * libtorch_cuda itself registered it: its host stub lies inside that
 * library's loaded segments (dl_iterate_phdr), so a program's own kernel
 * named like ATen's is never decoded as one. Names are demangled and
 * parsed at a kernel's first launch, not at registration (libtorch_cuda
 * registers tens of thousands). */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aten/aten.h"
#include "core/state.h"
#include "launch/launch.h"
#include "tables/real_dlsym.h"

/* By handle: open addressing, read without the lock (every ATen launch
 * asks). Entries are only ever added or re-pointed, under the mutex; a
 * table that grows is copied into a new one, published whole, and the old
 * one is kept (a reader may still be in it): at most as much again as the
 * table in use. A reader racing a registration may miss its entry, which
 * answers "not ATen's": unknown work, as before. */
typedef struct slot { const void *_Atomic key; pl_aten_fn *_Atomic fn; } slot;
typedef struct table { size_t cap; slot s[]; } table;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static table *_Atomic slots;
static size_t used; /* under mutex */

static size_t slot_of(const table *t, const void *key)
{
    size_t n = t->cap, i = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull & (n - 1);
    const void *k;
    while ((k = atomic_load_explicit(&t->s[i].key, memory_order_acquire)) && k != key)
        i = (i + 1) & (n - 1);
    return i;
}

static void put_locked(const void *key, pl_aten_fn *fn)
{
    table *t = atomic_load_explicit(&slots, memory_order_relaxed);
    size_t cap = t ? t->cap : 0;
    if ((used + 1) * 2 > cap) {
        size_t n = cap ? cap * 2 : 1024;
        table *g = calloc(1, sizeof *g + n * sizeof g->s[0]);
        if (!g)
            return;
        g->cap = n;
        for (size_t i = 0; i < cap; i++) {
            const void *k = atomic_load_explicit(&t->s[i].key, memory_order_relaxed);
            if (k) {
                slot *d = &g->s[slot_of(g, k)];
                atomic_store_explicit(&d->fn, atomic_load_explicit(&t->s[i].fn, memory_order_relaxed),
                                      memory_order_relaxed);
                atomic_store_explicit(&d->key, k, memory_order_relaxed);
            }
        }
        atomic_store_explicit(&slots, t = g, memory_order_release); /* the old table stays: see above */
    }
    slot *e = &t->s[slot_of(t, key)];
    used += !atomic_load_explicit(&e->key, memory_order_relaxed);
    atomic_store_explicit(&e->fn, fn, memory_order_release);
    atomic_store_explicit(&e->key, key, memory_order_release);
}

/* Registered functions by name too: on a real driver (CUDA 13, lazy
 * loading) the runtime launches through a driver handle it made itself,
 * which no hook saw it make, so no alias leads from it to the host stub's
 * entry; the launch's name still does (found on an H200, torch 2.11). */
typedef struct named { uint64_t h; pl_aten_fn *fn; } named;
static named *names;
static size_t names_cap, names_used;

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h | 1; /* 0 marks an empty slot */
}

static void name_put_locked(pl_aten_fn *fn)
{
    if ((names_used + 1) * 2 > names_cap) {
        size_t n = names_cap ? names_cap * 2 : 1024;
        named *tab = calloc(n, sizeof *tab);
        if (!tab)
            return;
        for (size_t i = 0; i < names_cap; i++)
            for (size_t j = names[i].h & (n - 1); names[i].h; j = (j + 1) & (n - 1))
                if (!tab[j].h) {
                    tab[j] = names[i];
                    break;
                }
        free(names);
        names = tab;
        names_cap = n;
    }
    size_t i = name_hash(fn->name) & (names_cap - 1);
    while (names[i].h)
        i = (i + 1) & (names_cap - 1);
    names[i] = (named){ name_hash(fn->name), fn };
    names_used++;
}

/* The name table is made at the first lookup by name, from every entry
 * registered so far: hashing each of libtorch_cuda's tens of thousands of
 * names at registration cost about 40 million instructions at import, and
 * on the stand-in no launch is looked up by name. */
static pl_aten_fn **registered;
static size_t registered_n, registered_cap;
static bool names_made;

static void registered_add_locked(pl_aten_fn *fn)
{
    if (names_made) {
        name_put_locked(fn);
        return;
    }
    if (registered_n == registered_cap) {
        size_t n = registered_cap ? registered_cap * 2 : 1024;
        pl_aten_fn **tab = realloc(registered, n * sizeof *tab);
        if (!tab)
            return;
        registered = tab;
        registered_cap = n;
    }
    registered[registered_n++] = fn;
}

static pl_aten_fn *name_get_locked(const char *name)
{
    if (!names_made) {
        names_made = true;
        for (size_t i = 0; i < registered_n; i++)
            name_put_locked(registered[i]);
        free(registered);
        registered = NULL;
        registered_n = registered_cap = 0;
    }
    uint64_t h = name_hash(name);
    for (size_t i = names_cap ? h & (names_cap - 1) : 0; names_cap && names[i].h; i = (i + 1) & (names_cap - 1))
        if (names[i].h == h && strcmp(names[i].fn->name, name) == 0)
            return names[i].fn;
    return NULL;
}

static pl_aten_fn *get(const void *key)
{
    table *t = atomic_load_explicit(&slots, memory_order_acquire);
    return t ? atomic_load_explicit(&t->s[slot_of(t, key)].fn, memory_order_acquire) : NULL;
}

/* The loaded object holding an address: its span and whether it is
 * libtorch_cuda. Registrations come in runs from one library, so the last
 * answer is kept. */
typedef struct object { uintptr_t lo, hi; bool torch; } object;
typedef struct find { uintptr_t addr; object found; bool hit; } find;

static int find_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    find *f = arg;
    (void)size;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    bool inside = false;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr, b = a + ph->p_memsz;
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
        inside |= f->addr >= a && f->addr < b;
    }
    if (!inside)
        return 0;
    const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    base = base ? base + 1 : info->dlpi_name ? info->dlpi_name : "";
    f->found = (object){ lo, hi, strncmp(base, "libtorch_cuda.so", 16) == 0 };
    f->hit = true;
    return 1;
}

static bool in_torch_cuda(const void *addr)
{
    static object last; /* guarded by mutex */
    uintptr_t a = (uintptr_t)addr;
    if (a >= last.lo && a < last.hi)
        return last.torch;
    find f = { a, { 0, 0, false }, false };
    dl_iterate_phdr(find_object, &f);
    if (f.hit)
        last = f.found;
    return f.hit && f.found.torch;
}

/* The families kernel.h parses, by their mangled names' start. */
static bool decoded_family(const char *name)
{
    if (name && strncmp(name, "_ZN", 3) == 0 && strstr(name, "_SoftMax_cu_") && strstr(name, "softmax_warp_"))
        return true; /* SoftMax.cu's anonymous namespace, outside at::native */
    return name && strncmp(name, "_ZN2at6native", 13) == 0 &&
           (strstr(name, "elementwise_kernel") || strstr(name, "distribution_elementwise_grid_stride_kernel") ||
            strstr(name, "fused_dropout_kernel") || strstr(name, "multi_tensor_apply_kernel") ||
            strstr(name, "transpose_copy_tiled_kernel") || strstr(name, "CatArrayBatchedCopy") ||
            strncmp(name, "_ZN2at6native13reduce_kernel", 28) == 0 || strstr(name, "reduce_cuda_kernel_2d") ||
            strstr(name, "vectorized_layer_norm_kernel"));
}

/* A fork while another thread holds the lock must not leave the child
 * unable to launch. */
static void fork_prepare(void) { pthread_mutex_lock(&mutex); }
static void fork_parent(void) { pthread_mutex_unlock(&mutex); }
static void fork_child(void) { pthread_mutex_init(&mutex, NULL); }
static void at_fork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

void pl_aten_register(const void *host_fn, const char *name)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (!host_fn || !decoded_family(name))
        return;
    pthread_once(&once, at_fork);
    pthread_mutex_lock(&mutex);
    pl_aten_fn *fn = in_torch_cuda(host_fn) ? calloc(1, sizeof *fn) : NULL;
    if (fn) {
        fn->name = name;
        put_locked(host_fn, fn);
        registered_add_locked(fn);
    }
    pthread_mutex_unlock(&mutex);
    if (fn && !atomic_exchange(&pl_family_seen_now, true)) {
        /* Launches stop being quiet. Stored here too, not only by a
         * republish: libtorch_cuda registers from its constructors, and
         * on a real driver the flags published before stayed quiet (seen
         * on an H200). Clearing them is always safe: only publish_quiet
         * sets them, and it now sees the family. */
        atomic_store(&pl_launch_learning_only_now, false);
        atomic_store(&pl_launch_quiet_now, false);
        pl_state_republish();
    }
}

void pl_aten_alias(const void *alias, const void *handle)
{
    pl_aten_fn *fn = atomic_load_explicit(&pl_family_seen_now, memory_order_relaxed) ? get(handle) : NULL;
    if (!fn || !alias)
        return;
    pthread_mutex_lock(&mutex);
    put_locked(alias, fn);
    pthread_mutex_unlock(&mutex);
}

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* The process's own libstdc++ demangles (PyTorch loads it). Python loads
 * torch's modules RTLD_LOCAL, so libstdc++ may be outside the global scope
 * (on an H200 it was; on the stand-in the preloaded libraries put it
 * there): then the loaded library itself is asked. */
static demangle_fn find_demangle(void)
{
    demangle_fn d = (demangle_fn)pl_real_dlsym(RTLD_DEFAULT, "__cxa_demangle");
    void *h = d ? NULL : dlopen("libstdc++.so.6", RTLD_NOW | RTLD_NOLOAD);
    return h ? (demangle_fn)pl_real_dlsym(h, "__cxa_demangle") : d; /* h stays open: libstdc++ is not unloaded */
}

static void parse(pl_aten_fn *fn)
{
    static _Atomic(demangle_fn) demangle;
    demangle_fn d = atomic_load(&demangle);
    if (!d)
        atomic_store(&demangle, d = find_demangle());
    int status = -1;
    char *text = d ? d(fn->name, NULL, NULL, &status) : NULL;
    bool ok = text && status == 0 && aten_kernel_parse(text, &fn->k);
    free(text);
    if (ok)
        aten_kernel_label(&fn->k, fn->label, sizeof fn->label);
    atomic_store(&fn->state, ok ? 1 : 2);
}

/* An entry parsed (once, whoever launches first), or NULL when it is not
 * a family decoded. */
static const pl_aten_fn *parsed(pl_aten_fn *a)
{
    if (!a)
        return NULL;
    int st = atomic_load_explicit(&a->state, memory_order_acquire);
    if (st == 0) {
        pthread_mutex_lock(&mutex);
        if (atomic_load(&a->state) == 0)
            parse(a);
        pthread_mutex_unlock(&mutex);
        st = atomic_load(&a->state);
    }
    return st == 1 ? a : NULL;
}

const pl_aten_fn *pl_aten_of(const void *fn)
{
    return parsed(get(fn));
}

bool pl_aten_watch(const void *fn)
{
    const pl_aten_fn *a = pl_aten_of(fn);
    return a && a->k.copy;
}

/* By handle; else by name, and the handle is remembered for the next
 * launch. */
/* What a handle the name lookup found to be none of ours maps to, so
 * that its later launches are answered by the handle alone, not by
 * hashing a name of hundreds of characters each time. */
static pl_aten_fn not_ours = { .state = 2 };

/* By handle; else by name, and the handle is remembered (ours or not) for
 * the next launch. */
static const void *kernel_of(const void *fn, const char *name)
{
    pl_aten_fn *a = fn ? get(fn) : NULL;
    if (a || !fn || !name || !decoded_family(name))
        return parsed(a);
    pthread_mutex_lock(&mutex);
    a = name_get_locked(name);
    put_locked(fn, a ? a : &not_ours);
    pthread_mutex_unlock(&mutex);
    return parsed(a);
}
static bool is_copy(const void *kernel) { return ((const pl_aten_fn *)kernel)->k.copy; }
static int launch_of(pl_launch *l, const void *kernel, bool *deferred)
{
    return pl_aten_launch(l, kernel, deferred);
}

PL_LAUNCH_FAMILY(aten, .registered = pl_aten_register, .alias = pl_aten_alias, .kernel = kernel_of,
                 .watch = pl_aten_watch, .copy = is_copy, .launch = launch_of);
