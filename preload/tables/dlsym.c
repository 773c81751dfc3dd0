/* The dlsym route: programs and libraries that dlopen a CUDA library and
 * look its functions up by name get our wrappers for the names we hook, and
 * exactly the real answer for everything else.
 *
 * The real dlsym, which every lookup of ours goes through, is in
 * real_dlsym.c.
 *
 * RTLD_NEXT gets exactly the real answer, never a substitution: a caller
 * loaded before us finds our wrapper there by itself, and one loaded after
 * us is asking for what lies past it (typically another interposer wanting
 * its real function); handing it our wrapper, whose own real function may
 * be that interposer, would make the two call each other forever. The real
 * dlsym resolves RTLD_NEXT relative to its caller's return address, so our
 * dlsym jumps to it (a tail jump, leaving the caller's return address in
 * place) rather than calling it. That path calls nothing but dlvsym: a
 * sanitizer runtime (ASan, TSan) preloaded before us resolves its
 * interceptors' real functions with dlsym(RTLD_NEXT) while it initialises,
 * when every function it intercepts (dlopen, pthread_once, ...) is still a
 * null pointer behind its interceptor. */
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>

#include "tables/hooks.h"
#include "tables/real_dlsym.h"
#include "core/state.h"

static __thread int dlsym_depth __attribute__((tls_model("initial-exec")));

/* Every name we hook starts with "cu" or "__cu". Checked by hand, before
 * anything else: a sanitizer initialising looks its own names up through
 * RTLD_DEFAULT too, when strcmp and pthread_once are not yet callable. */
TF_UNSANITIZED static bool maybe_ours(const char *name)
{
    if (name && name[0] == '_' && name[1] == '_')
        name += 2;
    return name && name[0] == 'c' && name[1] == 'u';
}

/* A handle's lookup of a name that may be ours, once the sanitizers (if
 * any) are up: the real answer, or our wrapper when we hook the name. */
static void *pl_dlsym_ours(void *handle, const char *name)
{
    dlsym_depth++;
    void *p = pl_real_dlsym(handle, name);
    if (p && pl_layer_on()) {
        int id = pl_hook_by_name(name);
        if (id >= 0) {
            pl_real_offer(id, p); /* the library may be invisible to RTLD_NEXT */
            p = pl_hook_wrapper(id);
        }
    }
    dlsym_depth--;
    return p;
}

/* Any handle but RTLD_NEXT. */
TF_UNSANITIZED __attribute__((used, visibility("hidden"))) void *pl_dlsym_handle(void *handle, const char *name)
{
    if (dlsym_depth > 0 || !maybe_ours(name))
        return pl_real_dlsym(handle, name);
    return pl_dlsym_ours(handle, name);
}

/* dlsym itself: RTLD_NEXT (-1) jumps to the real dlsym with the caller's
 * return address still on the stack; any other handle jumps to
 * pl_dlsym_handle. Registers carry the arguments through untouched. */
#if defined(__x86_64__)
TF_EXPORT __attribute__((naked)) void *dlsym(void *restrict handle __attribute__((unused)),
                                             const char *restrict name __attribute__((unused)))
{
    __asm__("cmpq $-1, %rdi\n\t"
            "jne 1f\n\t"
            "pushq %rdi\n\t"
            "pushq %rsi\n\t"
            "subq $8, %rsp\n\t" /* 16-byte alignment at the call */
            "call pl_dlsym_next_target\n\t"
            "addq $8, %rsp\n\t"
            "popq %rsi\n\t"
            "popq %rdi\n\t"
            "testq %rax, %rax\n\t"
            "jz 2f\n\t"
            "jmp *%rax\n"
            "1:\n\t"
            "jmp pl_dlsym_handle\n"
            "2:\n\t"
            "ret");
}
#elif defined(__aarch64__)
TF_EXPORT __attribute__((naked)) void *dlsym(void *restrict handle __attribute__((unused)),
                                             const char *restrict name __attribute__((unused)))
{
    __asm__("cmn x0, #1\n\t"
            "b.ne 1f\n\t"
            "stp x29, x30, [sp, #-32]!\n\t"
            "stp x0, x1, [sp, #16]\n\t"
            "bl pl_dlsym_next_target\n\t"
            "mov x16, x0\n\t"
            "ldp x0, x1, [sp, #16]\n\t"
            "ldp x29, x30, [sp], #32\n\t"
            "cbz x16, 2f\n\t"
            "br x16\n"
            "1:\n\t"
            "b pl_dlsym_handle\n"
            "2:\n\t"
            "mov x0, #0\n\t"
            "ret");
}
#else
#error "dlsym.c: the RTLD_NEXT tail jump is written for x86_64 and aarch64"
#endif
