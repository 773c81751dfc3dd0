/* Launch signatures: the function, its grid and block, and its parameter
 * bytes with every pointer-valued 8-byte slot masked (pointers differ from
 * step to step; everything else a kernel's behaviour may depend on must
 * match). A value is taken for a pointer when it lies in the span of the
 * allocations seen; a shape never does. */
#include <stdlib.h>
#include <string.h>

#include "learn/learn_internal.h"

#define FNV_PRIME 0x100000001b3ull

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

/* Masks the pointer slots (into `seen`) and hashes the rest. */
static bool mask_and_hash(const tf_learn *t, const tf_learn_launch *l, learn_seen *seen, uint64_t *mask,
                          uint64_t *hash)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = mix(h, &l->fn, sizeof l->fn);
    h = mix(h, &l->module, sizeof l->module);
    h = mix(h, l->grid, sizeof l->grid);
    h = mix(h, l->block, sizeof l->block);
    h = mix(h, &l->len, sizeof l->len);
    memset(mask, 0, LEARN_MASK_WORDS * sizeof *mask);
    seen->nptr = 0;
    size_t off = 0;
    for (; off + 8 <= l->len; off += 8) {
        uint64_t v;
        memcpy(&v, l->params + off, 8);
        if (v >= t->lo && v < t->hi) {
            if (seen->nptr == TF_LEARN_MAX_PTRS)
                return false;
            seen->ptr[seen->nptr] = v;
            seen->off[seen->nptr++] = off;
            mask[off / 512] |= 1ull << (off / 8 % 64);
            v = 0;
        }
        h = mix(h, &v, 8);
    }
    *hash = mix(h, l->params + off, l->len - off);
    return true;
}

static bool same(const learn_sig *s, const tf_learn_launch *l, const uint64_t *mask)
{
    if (s->fn != l->fn || s->module != l->module || s->len != l->len || memcmp(s->grid, l->grid, sizeof s->grid) ||
        memcmp(s->block, l->block, sizeof s->block) || memcmp(s->mask, mask, sizeof s->mask))
        return false;
    for (size_t off = 0; off < l->len; off++) {
        bool masked = mask[off / 512] >> (off / 8 % 64) & 1;
        if (!masked && s->bytes[off] != l->params[off])
            return false;
    }
    return true;
}

learn_sig *sig_find(tf_engine *e, uint64_t hash)
{
    learn_sig *s = NULL;
    HASH_FIND(hh, e->learn->sigs, &hash, sizeof hash, s);
    return s;
}

static learn_sig *sig_new(tf_engine *e, const tf_learn_launch *l, const uint64_t *mask, uint64_t hash)
{
    tf_learn *t = e->learn;
    if (t->nsigs >= t->knobs.max_signatures) {
        if (!t->sig_cap_logged)
            log_learn(e, NULL, "cap", TF_R_learn_cap_signatures);
        t->sig_cap_logged = true;
        return NULL;
    }
    learn_sig *s = calloc(1, sizeof *s);
    if (!s || !(s->bytes = malloc(l->len ? l->len : 1))) {
        free(s);
        return NULL;
    }
    s->hash = hash;
    s->fn = l->fn;
    s->module = l->module;
    memcpy(s->grid, l->grid, sizeof s->grid);
    memcpy(s->block, l->block, sizeof s->block);
    s->len = l->len;
    memcpy(s->mask, mask, sizeof s->mask);
    for (size_t off = 0; off < l->len; off++)
        s->bytes[off] = (mask[off / 512] >> (off / 8 % 64) & 1) ? 0 : l->params[off];
    s->name = strdup(l->name ? l->name : "?");
    HASH_ADD(hh, t->sigs, hash, sizeof s->hash, s);
    t->nsigs++;
    return s;
}

learn_sig *sig_of(tf_engine *e, const tf_learn_launch *l, learn_seen *seen)
{
    uint64_t mask[LEARN_MASK_WORDS], hash;
    if (l->len > TF_LEARN_MAX_PARAM_BYTES || !mask_and_hash(e->learn, l, seen, mask, &hash))
        return NULL;
    learn_sig *s = sig_find(e, hash);
    if (s)
        return same(s, l, mask) ? s : NULL; /* a hash collision is never mistaken for a match */
    return sig_new(e, l, mask, hash);
}

void sig_free_all(tf_learn *t)
{
    learn_sig *s, *tmp;
    HASH_ITER(hh, t->sigs, s, tmp) {
        HASH_DEL(t->sigs, s);
        free(s->bytes);
        free(s->name);
        free(s);
    }
}
