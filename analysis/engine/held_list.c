/* The list of frees held for pending records (held.c says why): each
 * made once no pending record reads its memory. Few at once (a GEMM's
 * operands and workspace until its transpose comes), walked whole. Apart
 * from held.c so that records.c, which calls in here when a record
 * leaves, is not called back. */
#include <stdlib.h>

#include "engine/internal.h"

bool held_still_read(tf_engine *e, tf_range r, uint64_t stream)
{
    tf_icursor at = ITREE_START;
    tf_record *p;
    while ((p = rec_next_src(e, r, &at)))
        if (p->state == REC_PENDING && held_by(p, r, stream))
            return true;
    return false;
}

bool held_push(tf_engine *e, const tf_held_free *f)
{
    if (e->nheld == e->held_cap) {
        size_t cap = e->held_cap ? 2 * e->held_cap : 8;
        tf_held_free *n = realloc(e->held, cap * sizeof *n);
        if (!n)
            return false;
        e->held = n;
        e->held_cap = cap;
    }
    e->held[e->nheld++] = *f;
    e->held_bytes += f->bytes;
    return true;
}

void held_release_unused(tf_engine *e)
{
    if (e->held_walking)
        return;
    for (size_t i = 0; i < e->nheld;) {
        tf_held_free f = e->held[i];
        tf_range r = { f.base, f.base + f.bytes };
        if (held_still_read(e, r, f.stream)) {
            i++;
            continue;
        }
        e->held[i] = e->held[--e->nheld];
        e->held_bytes -= f.bytes;
        if (e->exiting)
            continue;
        if (e->late)
            late_order_free(e, r, f.stream);
        e->cfg.hold.release(e->cfg.hold.ctx, &f);
    }
}


void held_clear(tf_engine *e)
{
    free(e->held);
    e->held = NULL;
    e->nheld = e->held_cap = 0;
    e->held_bytes = 0;
}
