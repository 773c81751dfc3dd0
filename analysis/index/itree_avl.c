/* The AVL interval tree behind itree.h: iterative inserts and removals
 * that stop rebalancing where the tree above stops changing. */
#include "index/itree_avl.h"

static inline int height(const tf_inode *n)
{
    return n ? n->height : 0;
}

static inline uint64_t max_hi(const tf_inode *n)
{
    return n ? n->max_hi : 0;
}

static inline uint64_t max3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* n's max_hi and min_lo from its children's: true if either changed. */
static inline bool refresh(tf_inode *n)
{
    uint64_t m = max3(n->hi, max_hi(n->kid[0]), max_hi(n->kid[1]));
    uint64_t mn = n->kid[0] ? n->kid[0]->min_lo : n->lo;
    if (m == n->max_hi && mn == n->min_lo)
        return false;
    n->max_hi = m;
    n->min_lo = mn;
    return true;
}

static inline void update(tf_inode *n)
{
    int l = height(n->kid[0]), r = height(n->kid[1]);
    n->height = 1 + (l > r ? l : r);
    refresh(n);
}

/* Moves n down on side d; its child on the other side takes its place. */
static inline tf_inode *rotate(tf_inode *n, int d)
{
    tf_inode *c = n->kid[!d];
    n->kid[!d] = c->kid[d];
    c->kid[d] = n;
    update(n);
    update(c);
    return c;
}

static inline tf_inode *balance(tf_inode *n)
{
    int l = height(n->kid[0]), r = height(n->kid[1]);
    n->height = 1 + (l > r ? l : r);
    refresh(n);
    int bf = l - r;
    if (bf > 1) {
        if (height(n->kid[0]->kid[0]) < height(n->kid[0]->kid[1]))
            n->kid[0] = rotate(n->kid[0], 0);
        return rotate(n, 1);
    }
    if (bf < -1) {
        if (height(n->kid[1]->kid[1]) < height(n->kid[1]->kid[0]))
            n->kid[1] = rotate(n->kid[1], 1);
        return rotate(n, 0);
    }
    return n;
}

/* AVL height is below 1.45 log2(n + 2): 96 levels is more than memory holds. */
#define MAX_DEPTH 96

/* Rebalances the links on the path after a removal, deepest first: a node
 * still in balance only has its height and max_hi/min_lo redone, and the
 * walk ends at the first node where none of them changes; a rotation's
 * subtree may have shrunk, so the walk goes on above it. The links from the
 * deepest up to index `until` (where a node moved: its fields say nothing
 * of its new place) are always redone. */
static void fix_up(tf_inode **path[], int depth, int until)
{
    while (depth-- > 0) {
        tf_inode *x = *path[depth];
        int l = height(x->kid[0]), r = height(x->kid[1]);
        if (l - r > 1 || r - l > 1) {
            *path[depth] = balance(x);
            continue;
        }
        int h = 1 + (l > r ? l : r);
        bool changed = refresh(x) || h != x->height;
        x->height = h;
        if (!changed && (until < 0 || depth < until))
            return;
    }
}

/* Every node on the way down gains n below it, so it takes n's hi and lo
 * into its max_hi and min_lo at once; on the way back up only heights are
 * left to fix, and they stop changing at the first node whose height holds
 * (a rotation gives its subtree back the height it had before). */
void avl_insert(tf_inode **root, tf_inode *n)
{
    tf_inode **path[MAX_DEPTH];
    int depth = 0;
    n->kid[0] = n->kid[1] = NULL;
    n->height = 1;
    n->max_hi = n->hi;
    n->min_lo = n->lo;
    tf_inode **link = root;
    while (*link && depth < MAX_DEPTH) {
        tf_inode *x = *link;
        if (x->max_hi < n->hi)
            x->max_hi = n->hi;
        if (x->min_lo > n->lo)
            x->min_lo = n->lo;
        path[depth++] = link;
        link = &x->kid[!key_less(n->lo, n->tie, x)];
    }
    *link = n;
    while (depth-- > 0) {
        tf_inode *x = *path[depth];
        int l = height(x->kid[0]), r = height(x->kid[1]);
        if (l - r > 1 || r - l > 1) {
            *path[depth] = balance(x);
            continue;
        }
        int h = 1 + (l > r ? l : r);
        if (h == x->height)
            break;
        x->height = h;
    }
}

bool avl_remove(tf_inode **root, tf_inode *n)
{
    tf_inode **path[MAX_DEPTH];
    int depth = 0;
    tf_inode **link = root;
    while (*link && *link != n && depth < MAX_DEPTH) {
        path[depth++] = link;
        link = &(*link)->kid[!key_less(n->lo, n->tie, *link)];
    }
    if (*link != n)
        return false; /* not in the tree */
    int until = -1;
    if (!n->kid[0] || !n->kid[1]) {
        *link = n->kid[0] ? n->kid[0] : n->kid[1];
    } else { /* n's successor, the leftmost node on its right, takes its place */
        until = depth;
        path[depth++] = link;
        tf_inode **l = &n->kid[1];
        while ((*l)->kid[0] && depth < MAX_DEPTH) {
            path[depth++] = l;
            l = &(*l)->kid[0];
        }
        tf_inode *m = *l;
        *l = m->kid[1];
        m->kid[0] = n->kid[0];
        m->kid[1] = n->kid[1];
        *link = m;
        if (depth > until + 1)
            path[until + 1] = &m->kid[1]; /* was &n->kid[1] */
    }
    fix_up(path, depth, until);
    n->kid[0] = n->kid[1] = NULL;
    return true;
}

tf_inode *avl_floor(tf_inode *root, uint64_t key)
{
    tf_inode *best = NULL;
    for (tf_inode *n = root; n;) {
        if (n->lo <= key) {
            best = n;
            n = n->kid[1];
        } else {
            n = n->kid[0];
        }
    }
    return best;
}

/* Keys to the left of n are smaller, so they are skipped once n is not after
 * the cursor; nodes to its right start at or after n->lo, so none of them
 * overlaps once n->lo >= hi; and no node under n ends after max_hi or
 * starts before min_lo. */
tf_inode *avl_next(tf_inode *n, uint64_t lo, uint64_t hi, const tf_icursor *at)
{
    if (!n || n->max_hi <= lo || n->min_lo >= hi)
        return NULL;
    if (after_cursor(n, at)) {
        tf_inode *r = avl_next(n->kid[0], lo, hi, at);
        if (r)
            return r;
        if (n->lo < hi && lo < n->hi)
            return n;
    }
    if (n->lo >= hi)
        return NULL;
    return avl_next(n->kid[1], lo, hi, at);
}

/* The first overlap of all: when the left subtree ends after lo, the answer
 * is there or nowhere (a left range ending after lo that does not overlap
 * starts at or after hi, and so do this node and all to its right). A
 * subtree whose ranges all end by lo or all start at or after hi has none. */
tf_inode *avl_first(tf_inode *n, uint64_t lo, uint64_t hi)
{
    while (n && n->max_hi > lo && n->min_lo < hi) {
        if (n->kid[0] && n->kid[0]->max_hi > lo)
            n = n->kid[0];
        else if (n->lo < hi && lo < n->hi)
            return n;
        else if (n->lo >= hi)
            return NULL;
        else
            n = n->kid[1];
    }
    return NULL;
}
