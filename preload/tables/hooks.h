/* The hook tables expanded: one id and one function-pointer type per entry,
 * an exported declaration per hook (a mismatch with the CUDA header's
 * prototype is a compile error: that is the export check), and access to
 * the real functions.
 *
 * Adding an entry point: one HOOK line in its family's .def (USE for a
 * function we only call), and its definition, with the header's exact
 * prototype, in the family's .c file. The dlsym and cuGetProcAddress routes
 * pick it up from the table; nothing else needs to know. */
#ifndef TF_HOOKS_H
#define TF_HOOKS_H
#include <stdatomic.h>
#include <stdbool.h>

#include "tables/hook_shapes.h"
#include "tables/tf_cuda_libs.h"

#define TF_EXPORT __attribute__((visibility("default")))

typedef enum pl_fn_id {
#define HOOK(lib, ret, name, params) TF_ID_##name,
#define USE(lib, ret, name, params) TF_ID_##name,
#include "tables/hooks_list.h"
#undef HOOK
#undef USE
    TF_ID_COUNT
} pl_fn_id;

#define HOOK(lib, ret, name, params) typedef ret(*pl_fn_##name) params; TF_EXPORT ret name params;
#define USE(lib, ret, name, params) typedef ret(*pl_fn_##name) params;
#include "tables/hooks_list.h"
#undef HOOK
#undef USE

/* The real function behind an entry, or NULL when no loaded library has it.
 * Resolved on first use and cached; the cached case is inline, since every
 * pass-through call pays for it. */
extern __attribute__((visibility("hidden"))) void *_Atomic pl_real_fns[TF_ID_COUNT]; /* hidden: no GOT load */
void *pl_real_resolve(pl_fn_id id);
static inline void *pl_real_get(pl_fn_id id)
{
    void *p = atomic_load_explicit(&pl_real_fns[id], memory_order_acquire);
    return p ? p : pl_real_resolve(id);
}
#define TF_REAL(name) ((pl_fn_##name)pl_real_get(TF_ID_##name))
/* The real function when already resolved, else NULL (a slow path then
 * resolves it): a fast path with no call in it saves no registers and can
 * end in a tail call. */
#define TF_REAL_KNOWN(name) ((pl_fn_##name)atomic_load_explicit(&pl_real_fns[TF_ID_##name], memory_order_acquire))

/* For launch hooks: the real `name` when the launch needs no look, else
 * NULL: it is nested inside another intercepted call (pl_depth > 0,
 * state.h), or launches are quiet (pl_launch_quiet_now: nothing pending, no
 * rules, no learning), and the real function is already known. A hook whose
 * first statement tail-calls it, and which leaves all other work to an
 * out-of-line function, costs a pass-through launch a few instructions and
 * no stack frame. A quiet launch runs at the depth it came with: the driver
 * launch a runtime makes for it finds launches quiet too (or, if a record
 * appeared meanwhile, describes it itself, as the launch it is). */
#define TF_NESTED_REAL(name)                                                                           \
    ((pl_fn_##name)(pl_depth > 0 || atomic_load_explicit(&pl_launch_quiet_now, memory_order_acquire)  \
                        ? atomic_load_explicit(&pl_real_fns[TF_ID_##name], memory_order_acquire)       \
                        : NULL))

/* Declares `real` as the real `name`; returns `fail` from the hook when it
 * cannot be found. */
#define TF_REAL_OR(name, fail)                 \
    pl_fn_##name real = TF_REAL(name);         \
    if (!real)                                 \
        return (fail)

/* Lets a resolver route hand us a real pointer it already found (a library
 * dlopen'ed RTLD_LOCAL is invisible to RTLD_NEXT). Ignored when one is known
 * or when `fn` is our own wrapper. */
void pl_real_offer(pl_fn_id id, void *fn);

/* Lookups for the resolver routes. */
int pl_hook_by_name(const char *name);     /* hooked entry id, or -1 */
/* The hooked entry whose real function is fn; -1 when fn is an exported
 * function we do not hook (or ours), -2 when it is not an exported symbol. */
int pl_hook_by_real(const void *fn);
void *pl_hook_wrapper(int id);             /* our exported function */
bool pl_hook_is_ours(const void *fn);      /* fn is one of our wrappers */

#endif
