/* The AVL tree behind itree.h's index (itree_avl.c), for itree.c only:
 * each node holds its subtree's largest hi and smallest lo. Cost, n =
 * nodes: every function O(log n) (avl_next: per node it returns, plus the
 * nodes it skips as at or before the cursor). */
#ifndef TF_ITREE_AVL_H
#define TF_ITREE_AVL_H
#include "index/itree.h"

/* (lo, tie) < b's key. */
static inline bool key_less(uint64_t lo, uint64_t tie, const tf_inode *b)
{
    return lo < b->lo || (lo == b->lo && tie < b->tie);
}

static inline bool after_cursor(const tf_inode *n, const tf_icursor *at)
{
    return !at->started || key_less(at->lo, at->tie, n);
}

void avl_insert(tf_inode **root, tf_inode *n);
bool avl_remove(tf_inode **root, tf_inode *n); /* false (and nothing done) if n is not there */
tf_inode *avl_floor(tf_inode *root, uint64_t key);
/* The first node in key order overlapping [lo, hi); or the first after *at. */
tf_inode *avl_first(tf_inode *root, uint64_t lo, uint64_t hi);
tf_inode *avl_next(tf_inode *root, uint64_t lo, uint64_t hi, const tf_icursor *at);

#endif
