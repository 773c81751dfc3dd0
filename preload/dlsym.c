/* The dlsym route: programs and libraries that dlopen a CUDA library and
 * look its functions up by name get our wrappers for the names we hook, and
 * exactly the real answer for everything else.
 *
 * The real dlsym is bootstrapped with dlvsym so that no lookup of ours ever
 * goes through an interposed dlsym (ours or anyone else's). */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>

#include "hooks.h"
#include "state.h"

typedef void *(*dlsym_fn)(void *, const char *);

static dlsym_fn real_dlsym;
static pthread_once_t real_dlsym_once = PTHREAD_ONCE_INIT;
static __thread int dlsym_depth __attribute__((tls_model("initial-exec")));

static void find_real_dlsym(void)
{
    real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!real_dlsym)
        real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
}

void *tf_real_dlsym(void *handle, const char *name)
{
    pthread_once(&real_dlsym_once, find_real_dlsym);
    return real_dlsym ? real_dlsym(handle, name) : NULL;
}

static struct link_map *object_of(const void *addr)
{
    Dl_info info;
    struct link_map *lm = NULL;
    return dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) ? lm : NULL;
}

/* Looks `name` up in `l` itself, through a proper handle (some link maps,
 * like the vDSO's, cannot serve as one). */
static void *defined_in(struct link_map *l, const char *name)
{
    if (!l->l_name || !l->l_name[0])
        return NULL;
    void *h = dlopen(l->l_name, RTLD_NOLOAD | RTLD_LAZY);
    if (!h)
        return NULL;
    void *p = tf_real_dlsym(h, name);
    dlclose(h); /* only drops the reference RTLD_NOLOAD took */
    return p && object_of(p) == l ? p : NULL;
}

/* RTLD_NEXT is relative to the caller, and the caller of the real dlsym
 * would now be us: walk the objects loaded after the caller and take the
 * first that defines `name` itself. */
static void *next_after(const void *caller, const char *name)
{
    struct link_map *self = object_of(caller);
    if (!self)
        return tf_real_dlsym(RTLD_NEXT, name);
    for (struct link_map *l = self->l_next; l; l = l->l_next) {
        void *p = defined_in(l, name);
        if (p)
            return p;
    }
    return NULL;
}

/* RTLD_NEXT gets exactly the real answer, never a substitution: a caller
 * loaded before us finds our wrapper there by itself, and one loaded after
 * us is asking for what lies past it (typically another interposer wanting
 * its real function); handing it our wrapper, whose own real function may
 * be that interposer, would make the two call each other forever. */
static void *lookup(void *handle, const char *name, const void *caller)
{
    if (handle == RTLD_NEXT)
        return next_after(caller, name);
    void *p = tf_real_dlsym(handle, name);
    if (!p || !tf_layer_on())
        return p;
    int id = tf_hook_by_name(name);
    if (id < 0)
        return p;
    tf_real_offer(id, p); /* the library may be invisible to RTLD_NEXT */
    return tf_hook_wrapper(id);
}

TF_EXPORT void *dlsym(void *restrict handle, const char *restrict name)
{
    const void *caller = __builtin_return_address(0);
    if (dlsym_depth > 0)
        return tf_real_dlsym(handle, name);
    dlsym_depth++;
    void *p = lookup(handle, name, caller);
    dlsym_depth--;
    return p;
}
