/* The slab pool (pool.h): objects taken are distinct, aligned and usable
 * whole; objects given back are taken again before any new slab. */
#include <stdalign.h>
#include <stdint.h>

#include "fixture.h"

#include "index/pool.h"

typedef struct obj { uint64_t a[5]; char tail[3]; } obj;

static void test_take_give_reuse(void **state)
{
    (void)state;
    enum { N = 3000 }; /* several 64 KiB slabs */
    tf_pool p = {0};
    obj *o[N];
    for (int i = 0; i < N; i++) {
        o[i] = pool_take(&p, sizeof(obj));
        assert_non_null(o[i]);
        assert_int_equal((uintptr_t)o[i] % alignof(max_align_t), 0);
        memset(o[i], i & 0xff, sizeof(obj));
    }
    for (int i = 0; i < N; i++) /* no object overlaps another */
        for (size_t b = 0; b < sizeof(obj); b++)
            assert_int_equal(((unsigned char *)o[i])[b], i & 0xff);
    void *slabs = p.slabs;
    for (int i = 0; i < N; i += 2)
        pool_give(&p, o[i]);
    for (int i = 0; i < N; i += 2) {
        obj *again = pool_take(&p, sizeof(obj));
        bool was_given = false;
        for (int j = 0; j < N; j += 2)
            was_given |= again == o[j];
        assert_true(was_given);
    }
    assert_ptr_equal(p.slabs, slabs); /* no new slab while given-back ones were there */
    pool_free(&p);
    assert_null(p.slabs);
    assert_null(p.free);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take_give_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
