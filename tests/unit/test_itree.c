/* The interval tree behind the allocation and record indexes: random
 * inserts and removals checked against a plain array after every step,
 * and the AVL height bound that makes lookups logarithmic. */
#include "fixture.h"

#include "index/itree.h"

enum { N = 600 };

typedef struct model { tf_inode node[N]; bool in[N]; } model;

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static bool key_before(const tf_inode *a, const tf_inode *b)
{
    return a->lo < b->lo || (a->lo == b->lo && a->tie < b->tie);
}

/* What itree_next_overlap must return: the smallest key after *at among the
 * overlapping nodes in the tree, by brute force. */
static const tf_inode *brute_next(const model *m, uint64_t lo, uint64_t hi, const tf_inode *after)
{
    const tf_inode *best = NULL;
    for (int i = 0; i < N; i++) {
        const tf_inode *n = &m->node[i];
        if (!m->in[i] || !(n->lo < hi && lo < n->hi) || (after && !key_before(after, n)))
            continue;
        if (!best || key_before(n, best))
            best = n;
    }
    return best;
}

static const tf_inode *brute_floor(const model *m, uint64_t key)
{
    const tf_inode *best = NULL;
    for (int i = 0; i < N; i++)
        if (m->in[i] && m->node[i].lo <= key && (!best || key_before(best, &m->node[i])))
            best = &m->node[i];
    return best;
}

/* Checks n's subtree: AVL balance, and max_hi and min_lo as the largest hi
 * and smallest lo below each node. */
static int check_heights(const tf_inode *n, uint64_t *max_hi, uint64_t *min_lo)
{
    if (!n) {
        *max_hi = 0;
        *min_lo = UINT64_MAX;
        return 0;
    }
    uint64_t ml, mr, nl, nr;
    int l = check_heights(n->kid[0], &ml, &nl), r = check_heights(n->kid[1], &mr, &nr);
    assert_true(l - r <= 1 && r - l <= 1);
    assert_int_equal(n->height, 1 + (l > r ? l : r));
    *max_hi = n->hi > ml ? n->hi : ml;
    *max_hi = *max_hi > mr ? *max_hi : mr;
    assert_int_equal(n->max_hi, *max_hi);
    *min_lo = n->lo < nl ? n->lo : nl;
    *min_lo = *min_lo < nr ? *min_lo : nr;
    assert_int_equal(n->min_lo, *min_lo);
    return 1 + (l > r ? l : r);
}

static void check_queries(const model *m, tf_itree *t, uint64_t *seed)
{
    for (int q = 0; q < 20; q++) {
        uint64_t lo = rnd(seed) % 5600, hi = lo + rnd(seed) % 300; /* some past every range */
        if (q < 2) { /* the same range at every check: a cached answer must follow the changes */
            lo = 2500;
            hi = 2600;
        }
        tf_icursor at = ITREE_START;
        const tf_inode *want = brute_next(m, lo, hi, NULL);
        for (tf_inode *got; (got = itree_next_overlap(t, lo, hi, &at)); want = brute_next(m, lo, hi, got))
            assert_ptr_equal(got, want);
        assert_null(want);
        uint64_t key = rnd(seed) % 5200;
        assert_ptr_equal(itree_floor(t, key), brute_floor(m, key));
    }
}

static void test_random_against_brute_force(void **state)
{
    (void)state;
    static model m;
    tf_itree t = {0};
    uint64_t seed = 12345;
    for (int i = 0; i < N; i++) {
        uint64_t lo = rnd(&seed) % 5000;
        m.node[i] = (tf_inode){.lo = lo, .hi = lo + rnd(&seed) % 200, .tie = (uint64_t)i};
    }
    for (int step = 0; step < 4000; step++) {
        int i = (int)(rnd(&seed) % N);
        if (m.in[i])
            itree_remove(&t, &m.node[i]);
        else
            itree_insert(&t, &m.node[i]);
        m.in[i] = !m.in[i];
        uint64_t top, bottom;
        check_heights(t.root, &top, &bottom);
        if (step % 16 == 0)
            check_queries(&m, &t, &seed);
    }
    size_t in = 0;
    for (int i = 0; i < N; i++)
        in += m.in[i];
    assert_int_equal(t.n, in);
}

/* 100,000 ascending keys, as an allocator hands out addresses: the height
 * stays within AVL's 1.44 log2(n), so lookups stay logarithmic. */
static void test_height_is_logarithmic(void **state)
{
    (void)state;
    enum { M = 100000 };
    tf_inode *nodes = calloc(M, sizeof *nodes);
    assert_non_null(nodes);
    tf_itree t = {0};
    for (int i = 0; i < M; i++) {
        nodes[i] = (tf_inode){.lo = (uint64_t)i * 256, .hi = (uint64_t)i * 256 + 256};
        itree_insert(&t, &nodes[i]);
    }
    assert_true(t.root->height <= 25); /* 1.44 * log2(100000) = 23.9 */
    tf_icursor at = ITREE_START;
    assert_ptr_equal(itree_next_overlap(&t, 256 * 777 + 5, 256 * 777 + 6, &at), &nodes[777]);
    assert_null(itree_next_overlap(&t, 256 * 777 + 5, 256 * 777 + 6, &at));
    free(nodes);
}

/* Ranges that share their lo, inserted out of tie order, so that the tree
 * and the nursery of young nodes (itree.h) both hold some: a walk returns
 * every overlap in (lo, tie) order, and removals from either leave the
 * rest found. */
static void test_young_and_old_in_key_order(void **state)
{
    (void)state;
    enum { M = 12 };
    tf_inode nodes[M];
    static const uint64_t ties[M] = {7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 6, 4};
    tf_itree t = {0};
    for (int i = 0; i < M; i++) {
        nodes[i] = (tf_inode){.lo = 100 + (ties[i] % 3) * 10, .hi = 200, .tie = ties[i]};
        itree_insert(&t, &nodes[i]);
    }
    bool gone[M] = {false};
    for (int round = 0; round < M; round++) {
        tf_icursor at = ITREE_START;
        const tf_inode *prev = NULL;
        int seen = 0;
        for (tf_inode *n; (n = itree_next_overlap(&t, 150, 151, &at)); prev = n, seen++)
            assert_true(!prev || key_before(prev, n));
        assert_int_equal(seen, M - round);
        assert_int_equal(t.n, (size_t)(M - round));
        int k = (round * 5) % M; /* young and old by turns */
        while (gone[k])
            k = (k + 1) % M;
        itree_remove(&t, &nodes[k]);
        gone[k] = true;
    }
    assert_null(t.root);
    assert_int_equal(t.n, 0);
}

/* A handful of nodes coming and going, as pending transposes do: the
 * nursery often holds a single node, alone or beside tree nodes the query
 * misses, and walks over it must still agree with the brute force. */
static void test_few_nodes_against_brute_force(void **state)
{
    (void)state;
    static model m;
    tf_itree t = {0};
    uint64_t seed = 777;
    enum { FEW = 7 };
    for (int i = 0; i < FEW; i++) {
        uint64_t lo = rnd(&seed) % 600;
        m.node[i] = (tf_inode){.lo = lo, .hi = lo + 1 + rnd(&seed) % 150, .tie = (uint64_t)i};
    }
    for (int step = 0; step < 3000; step++) {
        int i = (int)(rnd(&seed) % FEW);
        if (m.in[i])
            itree_remove(&t, &m.node[i]);
        else
            itree_insert(&t, &m.node[i]);
        m.in[i] = !m.in[i];
        for (int q = 0; q < 4; q++) {
            uint64_t lo = rnd(&seed) % 800, hi = lo + 1 + rnd(&seed) % 100;
            tf_icursor at = ITREE_START;
            const tf_inode *want = brute_next(&m, lo, hi, NULL);
            for (tf_inode *got; (got = itree_next_overlap(&t, lo, hi, &at)); want = brute_next(&m, lo, hi, got))
                assert_ptr_equal(got, want);
            assert_null(want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_brute_force),
        cmocka_unit_test(test_height_is_logarithmic),
        cmocka_unit_test(test_young_and_old_in_key_order),
        cmocka_unit_test(test_few_nodes_against_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
