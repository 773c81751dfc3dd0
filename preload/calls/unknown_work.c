/* See unknown_work.h. */
#include "calls/unknown_work.h"
#include "core/state.h"

void pl_unknown_begin(pl_unknown *u, const char *api, uint64_t stream, const void *const *ptrs, int n, bool indirect)
{
    u->noted = false;
    if (indirect || n > TF_UNKNOWN_MAX_PTRS) {
        pl_note_materialize_all(stream, TF_WHY(opaque_call, .str = {api}));
        return;
    }
    for (int i = 0; i < n; i++)
        u->words[i] = (uint64_t)(uintptr_t)ptrs[i];
    u->acc = (tf_access){ .api = api, .stream = stream, .unknown = true, .params = u->words,
                          .params_len = (size_t)n * sizeof u->words[0] };
    pl_note_access_begin(&u->acc);
    u->noted = true;
}

void pl_unknown_end(pl_unknown *u, bool ok)
{
    if (u->noted)
        pl_note_access_end(&u->acc, ok);
}
