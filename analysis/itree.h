/* An ordered index of address ranges: an AVL tree keyed by (lo, tie), each
 * node also holding the largest `hi` and the smallest `lo` below it, so the
 * ranges overlapping a query are found without visiting the others, and a
 * query outside every range's span ends at the root.
 *
 * Cost, n = nodes: insert, remove and floor O(log n); itree_next_overlap
 * O(log n) per range it returns (plus the ranges it skips because they were
 * returned before), O(1) when the query misses the span of all ranges.
 * Intrusive: the node lives inside the indexed struct, and nothing here
 * allocates. The tree never reads or writes a node after
 * itree_remove returns, so the owner may free it at once. */
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
} tf_inode;

/* The struct of type T whose member M is the node n. */
#define TF_CONTAINER(n, T, M) ((T *)((char *)(n) - offsetof(T, M)))

typedef struct tf_itree {
    tf_inode *root;
    size_t n;
    /* The last first overlap found, and its query: a call's accesses ask for
     * the same range again and again between changes. Cleared by every
     * insert and removal, so it is never stale; O(1) to check. */
    tf_inode *hit;
    uint64_t hit_lo, hit_hi;
} tf_itree;

/* Adds n (lo, hi and tie set by the caller; (lo, tie) not already there). */
void itree_insert(tf_itree *t, tf_inode *n);
/* Takes n out; it must be in t. */
void itree_remove(tf_itree *t, tf_inode *n);
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
tf_inode *itree_next_overlap(tf_itree *t, uint64_t lo, uint64_t hi, tf_icursor *at);

#endif
