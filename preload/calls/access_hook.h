/* The shape shared by every hook whose call is fully described by one
 * tf_access (copies, sets): the fast path, else the call run as its access.
 * DESCRIBE is an expression of the hook's parameters yielding a tf_access. */
#ifndef TF_ACCESS_HOOK_H
#define TF_ACCESS_HOOK_H
#include "tables/hooks.h"
#include "core/state.h"

#define TF_ACCESS_HOOK(RET, MISSING, NAME, PARAMS, ARGS, DESCRIBE) \
    RET NAME PARAMS                                                \
    {                                                              \
        TF_REAL_OR(NAME, MISSING);                                 \
        if (!pl_watching())                                        \
            return TF_PASS(real ARGS);                             \
        tf_access a = DESCRIBE;                                    \
        return TF_AS_ACCESS(a, real ARGS);                         \
    }

/* The shape of every hook that only has to tell the engine something
 * before the call (BEFORE, a statement over the hook's parameters) and then
 * runs it unchanged. */
#define TF_BEFORE_HOOK(RET, MISSING, NAME, PARAMS, ARGS, BEFORE) \
    RET NAME PARAMS                                              \
    {                                                            \
        TF_REAL_OR(NAME, MISSING);                               \
        BEFORE;                                                  \
        return TF_PASS(real ARGS);                               \
    }

/* A call whose accesses we do not enumerate (3D and batched copies): every
 * pending record is materialised first, whatever the policy, since there
 * are no parameter bytes to match. */
#define TF_OPAQUE_HOOK(RET, MISSING, NAME, PARAMS, ARGS, STREAM) \
    TF_BEFORE_HOOK(RET, MISSING, NAME, PARAMS, ARGS,             \
                   if (pl_watching()) pl_note_materialize_all(STREAM, TF_WHY(opaque_call, .str = {#NAME})))

/* Reading n bytes at src, overwriting n bytes at dst. */
static inline tf_access pl_copy_access(const char *api, uint64_t stream, uint64_t dst, uint64_t src, size_t n)
{
    tf_access a = { .api = api, .stream = stream };
    tf_access_read(&a, (tf_range){ src, src + n });
    tf_access_write(&a, tf_view_dense(dst, n));
    return a;
}

/* Overwriting the view w. */
static inline tf_access pl_set_access(const char *api, uint64_t stream, tf_view w)
{
    tf_access a = { .api = api, .stream = stream };
    tf_access_write(&a, w);
    return a;
}

#endif
