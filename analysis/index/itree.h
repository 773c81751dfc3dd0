/* An ordered index of address ranges keyed by (lo, tie): the ranges
 * overlapping a query, in key order, without visiting the others.
 *
 * The newest ITREE_YOUNG nodes wait in a small unordered nursery; older
 * ones live in an AVL tree (itree_avl.c) whose nodes also hold the largest
 * `hi` and the smallest `lo` below them, so a query outside every range's
 * span ends at the root. Most indexed things are short-lived (a transpose
 * is read and dropped within a few calls): they come and go in the nursery
 * in O(1) and never pay the tree's rebalancing.
 *
 * Cost, n = nodes: insert O(1), or O(log n) when it moves the oldest young
 * node into the tree; remove O(1) for a young node, else O(log n); floor
 * O(log n); itree_next_overlap O(log n + ITREE_YOUNG) per range it returns
 * (plus the ranges it skips because they were returned before).
 * Intrusive: the node lives inside the indexed struct, and nothing here
 * allocates. The index never reads or writes a node after itree_remove
 * returns, so the owner may free it at once. No locking of its own: the
 * engine's lock covers every use. */
#ifndef TF_ITREE_H
#define TF_ITREE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tf_inode {
    struct tf_inode *kid[2];
    uint64_t lo, hi;   /* the range [lo, hi) */
    uint64_t tie;      /* orders nodes with the same lo: unique within a tree */
    uint64_t max_hi;   /* the largest hi in this subtree */
    uint64_t min_lo;   /* the smallest lo in this subtree: its leftmost node's */
    int height;
    int young;         /* its nursery slot + 1, or 0 when in the tree */
} tf_inode;

/* The struct of type T whose member M is the node n. */
#define TF_CONTAINER(n, T, M) ((T *)((char *)(n) - offsetof(T, M)))

#define ITREE_YOUNG 4
#define ITREE_SEEN 4

typedef struct tf_itree {
    tf_inode *root;
    size_t n; /* nodes in all */
    /* The nursery: a ring written in insertion order, so the node in the
     * slot the next insertion takes is the oldest young one. */
    tf_inode *young[ITREE_YOUNG];
    unsigned young_used; /* bit k: slot k holds a node */
    unsigned ring;       /* the slot the next insertion takes */
    uint64_t young_min_lo, young_max_hi; /* the young nodes' span (none: empty) */
    /* The tree's answers (first overlap, or none) to its last ITREE_SEEN
     * first queries: calls ask for the same few ranges again and again,
     * and the tree seldom changes once the nursery takes the short-lived
     * nodes. An answer counts only while gen is the one it was found at;
     * every change to the tree moves gen on. O(ITREE_SEEN) to check. */
    struct tf_iseen { uint64_t lo, hi, gen; tf_inode *n; } seen[ITREE_SEEN];
    unsigned seen_next; /* the entry the next answer replaces */
    uint64_t gen;
} tf_itree;

/* Adds n (lo, hi and tie set by the caller; (lo, tie) not already there). */
void itree_insert_general(tf_itree *t, tf_inode *n);
/* Takes n out; it must be in t. */
void itree_remove_general(tf_itree *t, tf_inode *n);
/* Inline when the nursery alone changes and holds at most one node after:
 * a short-lived node coming while no other is young, and going again, is
 * then a few stores (the calls' own entry and exit cost more than that). */
static inline void itree_insert(tf_itree *t, tf_inode *n)
{
    unsigned k = t->ring;
    if (t->young_used) { /* none used: every slot is empty */
        itree_insert_general(t, n);
        return;
    }
    t->ring = (k + 1) % ITREE_YOUNG;
    t->young[k] = n;
    n->young = (int)k + 1;
    t->young_min_lo = n->lo;
    t->young_max_hi = n->hi;
    t->young_used = 1u << k;
    t->n++;
}

static inline void itree_remove(tf_itree *t, tf_inode *n)
{
    unsigned k = (unsigned)n->young - 1; /* a tree node's 0 wraps past every slot */
    if (k >= ITREE_YOUNG || t->young_used != 1u << k || t->young[k] != n) {
        itree_remove_general(t, n);
        return;
    }
    t->young[k] = NULL;
    t->young_used = 0;
    n->young = 0;
    t->young_min_lo = UINT64_MAX; /* the empty span, as young_span leaves it */
    t->young_max_hi = 0;
    t->n--;
}
/* The node with the greatest lo <= key (the greatest tie among equals). */
tf_inode *itree_floor(const tf_itree *t, uint64_t key);
/* A position in key order for walks that remove (and free) the nodes they
 * visit: the walk resumes after the key, not after a node. */
typedef struct tf_icursor {
    uint64_t lo, tie;
    bool started;
} tf_icursor;
#define ITREE_START ((tf_icursor){0, 0, false})

/* The first node after *at in key order whose range overlaps [lo, hi); *at
 * moves to it. Overlap is tf_range_overlaps's: lo < other's hi and the
 * other's lo < hi. */
tf_inode *itree_walk(tf_itree *t, uint64_t lo, uint64_t hi, tf_icursor *at);
/* Inline, so that a query that meets neither part's span (most of them),
 * or only the tree's with its answer already seen, costs a few compares
 * and no call. */
static inline tf_inode *itree_next_overlap(tf_itree *t, uint64_t lo, uint64_t hi, tf_icursor *at)
{
    bool old = t->root && t->root->max_hi > lo && t->root->min_lo < hi;
    bool young = t->young_max_hi > lo && t->young_min_lo < hi;
    if (old && !young && !at->started) {
        for (int k = 0; k < ITREE_SEEN; k++) {
            const struct tf_iseen *s = &t->seen[k];
            if (s->lo == lo && s->hi == hi && s->gen == t->gen) {
                if (s->n)
                    *at = (tf_icursor){s->n->lo, s->n->tie, true};
                return s->n;
            }
        }
    }
    /* One young node and no tree node in reach (a transpose read or
     * overwritten soon after it was made): the young span is that node's
     * range, so the query meets it; it is the answer unless the walk has
     * already passed it. */
    if (young && !old && !(t->young_used & (t->young_used - 1))) {
        tf_inode *y = t->young[__builtin_ctz(t->young_used)];
        if (at->started && !(at->lo < y->lo || (at->lo == y->lo && at->tie < y->tie)))
            return NULL;
        *at = (tf_icursor){y->lo, y->tie, true};
        return y;
    }
    return old || young ? itree_walk(t, lo, hi, at) : NULL;
}

#endif
