/* The open-addressing map (umap.h): random insertions, replacements and
 * removals of clustered keys, each checked against a plain array, through
 * several growths; and the probe run left whole by removals. */
#include "fixture.h"

#include "index/umap.h"

enum { KEYS = 3000 };

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 21;
}

static void test_random_against_an_array(void **state)
{
    (void)state;
    static uint64_t key[KEYS];
    static int val[KEYS];
    static bool in[KEYS];
    uint64_t seed = 7;
    /* Aligned addresses in a few clusters, as allocators hand out, plus 0. */
    for (int i = 0; i < KEYS; i++)
        key[i] = i ? (rnd(&seed) % 4) << 40 | (uint64_t)i << 8 : 0;
    tf_umap m = {0};
    size_t n = 0;
    for (int step = 0; step < 40000; step++) {
        int i = (int)(rnd(&seed) % KEYS);
        if (in[i] && rnd(&seed) % 3 == 0) {
            assert_ptr_equal(umap_del(&m, key[i]), &val[i]);
            in[i] = false;
            n--;
        } else {
            assert_true(umap_put(&m, key[i], &val[i]));
            n += !in[i];
            in[i] = true;
        }
        assert_int_equal(m.n, n);
        int j = (int)(rnd(&seed) % KEYS);
        assert_ptr_equal(umap_get(&m, key[j]), in[j] ? &val[j] : NULL);
        assert_null(umap_get(&m, key[j] + 1)); /* never a key */
        if (!in[j])
            assert_null(umap_del(&m, key[j]));
    }
    for (int i = 0; i < KEYS; i++)
        assert_ptr_equal(umap_get(&m, key[i]), in[i] ? &val[i] : NULL);
    umap_free(&m);
    assert_null(umap_get(&m, key[1]));
}

/* Keys sharing a home slot form one probe run; removing any of them must
 * leave the others findable. */
static void test_removal_in_a_run(void **state)
{
    (void)state;
    tf_umap m = {0};
    int v[6];
    uint64_t k[6];
    assert_true(umap_put(&m, 1, &v[0]));
    size_t home = umap_home(&m, 1);
    int found = 1;
    k[0] = 1;
    for (uint64_t c = 2; found < 6; c++)
        if (umap_home(&m, c) == home) {
            k[found] = c;
            assert_true(umap_put(&m, c, &v[found++]));
        }
    for (int gone = 0; gone < 6; gone++) {
        assert_ptr_equal(umap_del(&m, k[(gone * 5) % 6]), &v[(gone * 5) % 6]);
        for (int i = gone + 1; i < 6; i++)
            assert_ptr_equal(umap_get(&m, k[(i * 5) % 6]), &v[(i * 5) % 6]);
    }
    assert_int_equal(m.n, 0);
    umap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_an_array),
        cmocka_unit_test(test_removal_in_a_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
