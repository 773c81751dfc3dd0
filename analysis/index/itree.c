/* The index of itree.h: the nursery of young nodes in front of the AVL
 * tree, and the tree's answers to its last first queries. */
#include "index/itree_avl.h"

/* The young nodes' span, redone from at most ITREE_YOUNG of them (none:
 * an empty span, which no query meets). */
static void young_span(tf_itree *t)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned used = t->young_used; used; used &= used - 1) {
        const tf_inode *y = t->young[__builtin_ctz(used)];
        lo = y->lo < lo ? y->lo : lo;
        hi = y->hi > hi ? y->hi : hi;
    }
    t->young_min_lo = lo;
    t->young_max_hi = hi;
}

void itree_insert_general(tf_itree *t, tf_inode *n)
{
    unsigned k = t->ring;
    t->ring = (k + 1) % ITREE_YOUNG;
    tf_inode *old = t->young[k];
    if (old) { /* the oldest young node: it has lived long enough for the tree */
        old->young = 0;
        avl_insert(&t->root, old);
        t->gen++;
    }
    t->young[k] = n;
    n->young = (int)k + 1;
    if (old) {
        young_span(t);
    } else if (!t->young_used) {
        t->young_min_lo = n->lo;
        t->young_max_hi = n->hi;
    } else {
        t->young_min_lo = n->lo < t->young_min_lo ? n->lo : t->young_min_lo;
        t->young_max_hi = n->hi > t->young_max_hi ? n->hi : t->young_max_hi;
    }
    t->young_used |= 1u << k;
    t->n++;
}

void itree_remove_general(tf_itree *t, tf_inode *n)
{
    if (n->young) {
        unsigned k = (unsigned)n->young - 1;
        if (k >= ITREE_YOUNG || t->young[k] != n)
            return; /* not in this index */
        t->young[k] = NULL;
        t->young_used &= ~(1u << k);
        n->young = 0;
        young_span(t);
    } else if (avl_remove(&t->root, n)) {
        t->gen++;
    } else {
        return; /* not in this index */
    }
    t->n--;
}

tf_inode *itree_floor(const tf_itree *t, uint64_t key)
{
    tf_inode *best = avl_floor(t->root, key);
    for (unsigned used = t->young_used; used; used &= used - 1) {
        tf_inode *y = t->young[__builtin_ctz(used)];
        if (y->lo <= key && (!best || key_less(best->lo, best->tie, y)))
            best = y;
    }
    return best;
}

/* The young node first in key order after *at overlapping [lo, hi). */
static tf_inode *young_next(const tf_itree *t, uint64_t lo, uint64_t hi, const tf_icursor *at)
{
    tf_inode *best = NULL;
    for (unsigned used = t->young_used; used; used &= used - 1) {
        tf_inode *y = t->young[__builtin_ctz(used)];
        if (y->lo < hi && lo < y->hi && after_cursor(y, at) && (!best || key_less(y->lo, y->tie, best)))
            best = y;
    }
    return best;
}

/* The tree's first overlap after *at. A walk's first step is answered
 * from the answers seen, when the tree has not changed since (the zeroed
 * entries of a new tree answer only [0, 0), which overlaps nothing). */
static tf_inode *tree_next(tf_itree *t, uint64_t lo, uint64_t hi, const tf_icursor *at)
{
    if (at->started)
        return avl_next(t->root, lo, hi, at);
    for (int k = 0; k < ITREE_SEEN; k++) {
        const struct tf_iseen *s = &t->seen[k];
        if (s->lo == lo && s->hi == hi && s->gen == t->gen)
            return s->n;
    }
    tf_inode *n = avl_first(t->root, lo, hi);
    t->seen[t->seen_next] = (struct tf_iseen){lo, hi, t->gen, n};
    t->seen_next = (t->seen_next + 1) % ITREE_SEEN;
    return n;
}

/* itree_next_overlap's walk: each part is asked only when the query meets
 * its span. */
tf_inode *itree_walk(tf_itree *t, uint64_t lo, uint64_t hi, tf_icursor *at)
{
    tf_inode *a = NULL, *b = NULL;
    if (t->root && t->root->max_hi > lo && t->root->min_lo < hi)
        a = tree_next(t, lo, hi, at);
    if (t->young_max_hi > lo && t->young_min_lo < hi)
        b = young_next(t, lo, hi, at);
    tf_inode *n = a && (!b || key_less(a->lo, a->tie, b)) ? a : b;
    if (n)
        *at = (tf_icursor){n->lo, n->tie, true};
    return n;
}
