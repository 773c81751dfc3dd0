/* tf_view_valid's inline fast path against the general check: on shapes
 * around every limit of the fast path, both must agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view.h"

static void test_fast_path_agrees(void **state)
{
    (void)state;
    const int64_t big = (int64_t)1 << 28;
    const int64_t sizes[] = { -1, 0, 1, 2, 7, big - 1, big, (int64_t)1 << 40, INT64_MAX };
    const uint32_t elems[] = { 0, 1, 4, 16, 64, 65, 4096 };
    const uint64_t addrs[] = { 0, 0x10000000ull, (1ull << 63) - 1, 1ull << 63, UINT64_MAX - 64 };
    const int64_t strides[] = { -1, 0, 5 };
    const int64_t batches[] = { 0, 1, 2 };
    int checked = 0, valid = 0;
    for (size_t r = 0; r < sizeof sizes / sizeof *sizes; r++)
        for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++)
            for (size_t l = 0; l < sizeof sizes / sizeof *sizes; l++)
                for (size_t el = 0; el < sizeof elems / sizeof *elems; el++)
                    for (size_t a = 0; a < sizeof addrs / sizeof *addrs; a++)
                        for (size_t s = 0; s < sizeof strides / sizeof *strides; s++)
                            for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
                                tf_view v = { .addr = addrs[a], .elem = elems[el], .rows = sizes[r],
                                              .cols = sizes[c], .ld = sizes[l], .batch = batches[b],
                                              .stride = strides[s] };
                                bool fast = tf_view_valid(&v);
                                assert_int_equal(fast, tf_view_valid_general(&v));
                                checked++;
                                valid += fast;
                            }
    assert_true(valid > 0 && valid < checked); /* both answers were exercised */
}

/* Shapes the fast path decides, by hand. */
static void test_fast_path_cases(void **state)
{
    (void)state;
    tf_view v = { .addr = 0x1000, .elem = 4, .rows = 8, .cols = 3, .ld = 8, .batch = 1, .stride = 0 };
    assert_true(tf_view_valid(&v));
    v.ld = 7; /* ld below the rows */
    assert_false(tf_view_valid(&v));
    v.ld = 8, v.stride = -1; /* a negative stride, even unused */
    assert_false(tf_view_valid(&v));
    v.stride = 0, v.rows = 0, v.ld = 0; /* an empty view still needs ld >= 1 */
    assert_false(tf_view_valid(&v));
    v.ld = 1;
    assert_true(tf_view_valid(&v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_path_agrees),
        cmocka_unit_test(test_fast_path_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
