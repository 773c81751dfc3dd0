/* The allocation page map (allocs.c): random allocations of every size
 * class, frees, addresses reused without a free, and lookups of interior,
 * boundary and empty ranges, each checked against a plain list. */
#include "fixture.h"

#include "engine/internal.h"

enum { SLOTS = 400 };

typedef struct model { uint64_t base[SLOTS], size[SLOTS]; bool live[SLOTS]; } model;

static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* Sizes from 0 bytes to 64 MiB, so most size classes are in use at once. */
static uint64_t random_size(uint64_t *s)
{
    int bits = (int)(rnd(s) % 27);
    return bits ? rnd(s) % (1ull << bits) : 0;
}

static bool model_contains(const model *m, tf_range r)
{
    for (int i = 0; i < SLOTS; i++)
        if (m->live[i] && tf_range_contains((tf_range){m->base[i], m->base[i] + m->size[i]}, r))
            return true;
    return false;
}

static void check_lookup(const tf_engine *e, const model *m, tf_range r)
{
    if (r.lo > r.hi)
        return; /* not a range: footprints never are */
    const tf_alloc_entry *a = alloc_find(e, r);
    if (!model_contains(m, r)) {
        assert_null(a);
        return;
    }
    assert_non_null(a);
    assert_true(tf_range_contains((tf_range){a->base, a->base + a->size}, r));
}

/* An allocation at base replaces whatever was listed at that base. */
static void model_add(model *m, int slot, uint64_t base, uint64_t size)
{
    for (int i = 0; i < SLOTS; i++)
        if (m->live[i] && m->base[i] == base)
            m->live[i] = false;
    m->base[slot] = base;
    m->size[slot] = size;
    m->live[slot] = true;
}

static void test_random_against_a_list(void **state)
{
    (void)state;
    static model m;
    tf_config cfg = {.mode = TF_MODE_FOLD};
    tf_engine *e = tf_engine_new(&cfg);
    uint64_t seed = 99, arena = 1ull << 40;
    for (int step = 0; step < 6000; step++) {
        int i = (int)(rnd(&seed) % SLOTS);
        if (m.live[i]) {
            alloc_release(e, alloc_take(e, m.base[i]));
            m.live[i] = false;
        } else {
            /* Mostly 256-byte aligned, as cudaMalloc; some overlap live ones
             * (memory freed by a route the engine did not see). */
            uint64_t base = arena + (rnd(&seed) % (1ull << 30) & ~(uint64_t)(rnd(&seed) % 4 ? 255 : 0));
            uint64_t size = random_size(&seed);
            alloc_add(e, base, size, TF_MEM_DEVICE);
            model_add(&m, i, base, size);
        }
        for (int q = 0; q < 8; q++) {
            int j = (int)(rnd(&seed) % SLOTS);
            uint64_t b = m.base[j], n = m.size[j], off = n ? rnd(&seed) % n : 0;
            check_lookup(e, &m, (tf_range){b + off, b + off + 1});
            check_lookup(e, &m, (tf_range){b, b + n});
            check_lookup(e, &m, (tf_range){b + n, b + n}); /* one past the end, empty */
            check_lookup(e, &m, (tf_range){b + n - 1, b + n + 1});
            uint64_t any = arena + rnd(&seed) % (1ull << 30);
            check_lookup(e, &m, (tf_range){any, any + 4});
        }
    }
    tf_engine_free(e);
}

/* 100,000 live allocations: every one is found from inside, none past it. */
static void test_many_allocations(void **state)
{
    (void)state;
    tf_config cfg = {.mode = TF_MODE_FOLD};
    tf_engine *e = tf_engine_new(&cfg);
    enum { N = 100000 };
    for (uint64_t i = 0; i < N; i++)
        alloc_add(e, 0x700000000000ull + i * 512, 300, TF_MEM_DEVICE);
    for (uint64_t i = 0; i < N; i += 7) {
        uint64_t b = 0x700000000000ull + i * 512;
        const tf_alloc_entry *a = alloc_find(e, (tf_range){b + 299, b + 300});
        assert_non_null(a);
        assert_int_equal(a->base, b);
        assert_null(alloc_find(e, (tf_range){b + 300, b + 301}));
    }
    tf_engine_free(e);
}

/* A buffer freed and made again in a loop, at its own base and at another
 * one of its size class by turns: the granule each leaves empty is found
 * again or given up, and a lookup never finds a freed buffer. */
static void test_free_and_remake(void **state)
{
    (void)state;
    tf_config cfg = {.mode = TF_MODE_FOLD};
    tf_engine *e = tf_engine_new(&cfg);
    const uint64_t a = 0x7f0000100000ull, b = 0x7f0000900000ull, size = 4096;
    alloc_add(e, 0x7f0000000000ull, size, TF_MEM_DEVICE); /* kept: its level stays in use */
    for (int i = 0; i < 40; i++) {
        uint64_t base = i % 3 ? a : b, other = i % 3 ? b : a;
        alloc_add(e, base, size, TF_MEM_DEVICE);
        const tf_alloc_entry *got = alloc_find(e, (tf_range){base + 100, base + 200});
        assert_non_null(got);
        assert_int_equal(got->base, base);
        assert_null(alloc_find(e, (tf_range){other + 100, other + 200}));
        alloc_release(e, alloc_take(e, base));
        assert_null(alloc_find(e, (tf_range){base + 100, base + 200}));
    }
    tf_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_a_list),
        cmocka_unit_test(test_many_allocations),
        cmocka_unit_test(test_free_and_remake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
