/* The real dlsym, bootstrapped with dlvsym so that no lookup of ours ever
 * goes through an interposed dlsym (ours or anyone else's). It calls
 * nothing but dlvsym: a sanitizer initialising reaches it (see dlsym.c). */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

#include "tables/real_dlsym.h"

static _Atomic(pl_dlsym_fn) real_dlsym;

/* Racing first calls find the same function: no once-guard needed (and
 * pthread_once is one of the functions a sanitizer intercepts). */
TF_UNSANITIZED __attribute__((used, visibility("hidden"))) pl_dlsym_fn pl_dlsym_next_target(void)
{
    pl_dlsym_fn f = atomic_load_explicit(&real_dlsym, memory_order_acquire);
    if (f)
        return f;
    /* glibc 2.34 moved dlsym into libc under a new version; before that it
     * has the architecture's base version: 2.2.5 on x86-64, 2.17 on aarch64. */
    static const char *const versions[] = { "GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17" };
    for (unsigned i = 0; !f && i < sizeof versions / sizeof versions[0]; i++)
        f = (pl_dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", versions[i]);
    atomic_store_explicit(&real_dlsym, f, memory_order_release);
    return f;
}

TF_UNSANITIZED void *pl_real_dlsym(void *handle, const char *name)
{
    pl_dlsym_fn f = pl_dlsym_next_target();
    return f ? f(handle, name) : NULL;
}
