/* Signatures that survive bytes a kernel never reads.
 *
 * Generated kernels pass structs whose unused slots hold whatever was on
 * the host's stack (ATen's OffsetCalculator beyond `dims`; nvFuser's and
 * Triton's structs do the same), so a transpose's launches may never repeat
 * a signature exactly. The rule: once two signatures of the same function,
 * grid, block and parameter size (a family) became candidates for the same
 * GEMM view from the same output slot (the symptom), a launch of the family
 * that matches no signature is measured against such a candidate or trusted
 * transpose (its group); when the
 * proof finds exactly the group's transpose (same output slot and view,
 * same source slot and geometry), the bytes where the two launches differ
 * are marked as varying, and launches that match the group outside them
 * are the group's from then on. Trust still takes K proofs, each on a
 * launch that matches the group's signature as it then stands; a bootstrap
 * that fails judges only the launch's own signature. What this extrapolates
 * (that bytes seen to vary with no effect never matter) verify mode checks.
 * Only transposes merge: a rejected launch's effect (learn.c) is never
 * widened to launches that differ from it. */
#include <stdlib.h>
#include <string.h>

#include "learn/learn_internal.h"

#define FNV_PRIME 0x100000001b3ull

uint64_t fam_hash(const tf_learn_launch *l)
{
    const void *parts[] = { &l->fn, &l->module, l->grid, l->block, &l->len };
    const size_t sizes[] = { sizeof l->fn, sizeof l->module, sizeof l->grid, sizeof l->block, sizeof l->len };
    uint64_t h = 0xcbf29ce484222325ull;
    for (int p = 0; p < 5; p++)
        for (size_t i = 0; i < sizes[p]; i++)
            h = (h ^ ((const unsigned char *)parts[p])[i]) * FNV_PRIME;
    return h;
}

static bool same_family(const learn_sig *s, const tf_learn_launch *l)
{
    return s->fn == l->fn && s->module == l->module && s->len == l->len &&
           !memcmp(s->grid, l->grid, sizeof s->grid) && !memcmp(s->block, l->block, sizeof s->block);
}

static bool same_view(const tf_view *a, const tf_view *b)
{
    return a->elem == b->elem && a->rows == b->rows && a->cols == b->cols && a->ld == b->ld &&
           a->batch == b->batch && a->stride == b->stride;
}

static learn_fam *fam_find(const tf_learn *t, const tf_learn_launch *l)
{
    uint64_t h = fam_hash(l);
    learn_fam *f = NULL;
    HASH_FIND(hh, t->fams, &h, sizeof h, f);
    return f;
}

void fam_add(tf_engine *e, learn_sig *s)
{
    tf_learn *t = e->learn;
    tf_learn_launch l = { .fn = s->fn, .module = s->module, .len = s->len };
    memcpy(l.grid, s->grid, sizeof l.grid);
    memcpy(l.block, s->block, sizeof l.block);
    learn_fam *f = fam_find(t, &l);
    if (!f) {
        if (!(f = calloc(1, sizeof *f)))
            return;
        f->hash = fam_hash(&l);
        HASH_ADD(hh, t->fams, hash, sizeof f->hash, f);
    }
    int free_at = -1;
    for (int i = 0; i < LEARN_FAM_GROUPS; i++) {
        learn_sig *g = f->groups[i];
        if (g == s)
            return;
        bool open = g && (g->state == SIG_CANDIDATE || g->state == SIG_TRUSTED);
        if (!open && free_at < 0)
            free_at = i;
        if (open && g->out_off == s->out_off && g->out_delta == s->out_delta && same_view(&g->view, &s->view))
            g->recurs = s->recurs = true;
    }
    if (free_at >= 0) /* a full family keeps the groups it has */
        f->groups[free_at] = s;
}

/* Differences of l from g outside g's varying bytes, up to `limit`: a slot
 * that is a pointer in one and not the other counts 8. */
static int distance(const learn_sig *g, const tf_learn_launch *l, const uint64_t *mask, int limit)
{
    int d = 0;
    for (size_t off = 0; off < l->len && d < limit; off++) {
        if (sig_varies(g, off))
            continue;
        bool slot = off / 8 * 8 + 8 <= l->len;
        bool gp = slot && sig_is_ptr(g->mask, off), lp = slot && sig_is_ptr(mask, off);
        if (gp != lp)
            d++;
        else if (!gp && g->bytes[off] != l->params[off])
            d++;
    }
    return d;
}

learn_sig *group_match(tf_engine *e, const tf_learn_launch *l, const uint64_t *mask)
{
    learn_fam *f = fam_find(e->learn, l);
    for (int i = 0; f && i < LEARN_FAM_GROUPS; i++) {
        learn_sig *g = f->groups[i];
        if (g && g->vary && same_family(g, l) && distance(g, l, mask, 1) == 0)
            return g;
    }
    return NULL;
}

learn_sig *group_for_bootstrap(tf_engine *e, const tf_learn_launch *l, const uint64_t *mask)
{
    learn_fam *f = fam_find(e->learn, l);
    learn_sig *best = NULL;
    int best_d = (int)l->len + 1;
    if (!f)
        return NULL;
    for (int i = 0; i < LEARN_FAM_GROUPS; i++) {
        learn_sig *g = f->groups[i];
        if (!g || (g->state != SIG_CANDIDATE && g->state != SIG_TRUSTED) || !(g->recurs || g->vary) || g->fails >= LEARN_GROUP_FAILS || !same_family(g, l) ||
            g->out_off + 8 > l->len || !sig_is_ptr(mask, g->out_off))
            continue;
        int d = distance(g, l, mask, best_d);
        /* once a group knows its varying bytes, a launch differing in many
         * more is another operation (a plain copy beside the transpose) */
        if (d < best_d && (!g->vary || d <= LEARN_BOOT_NEAR))
            best = g, best_d = d;
    }
    return best;
}

bool group_merge(learn_sig *g, const tf_learn_launch *l, const uint64_t *mask)
{
    if (!g->vary && !(g->vary = calloc(LEARN_VARY_WORDS, sizeof *g->vary)))
        return false;
    for (size_t off = 0; off < l->len; off++) {
        bool slot = off / 8 * 8 + 8 <= l->len;
        bool gp = slot && sig_is_ptr(g->mask, off), lp = slot && sig_is_ptr(mask, off);
        if (gp != lp) /* a slot that is sometimes a pointer: all of it varies */
            for (size_t b = off / 8 * 8; b < off / 8 * 8 + 8; b++)
                g->vary[b / 64] |= 1ull << (b % 64);
        else if (!gp && g->bytes[off] != l->params[off])
            g->vary[off / 64] |= 1ull << (off % 64);
    }
    return true;
}

void fam_free_all(tf_learn *t)
{
    learn_fam *f, *tmp;
    HASH_ITER(hh, t->fams, f, tmp) {
        HASH_DEL(t->fams, f);
        free(f);
    }
}
