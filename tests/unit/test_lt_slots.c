/* The cuBLASLt shadow slots (preload/lt/shadow_slots.h): a claimed slot is
 * found again and reused after a destroy, versions change with every
 * change, a full probe window leaves a descriptor without a shadow (the
 * conservative answer) and frees nothing else, and threads making, setting
 * and destroying their own descriptors never see another's. */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lt/shadow_slots.h"

enum { KIND = 1, ATTR = 7 };

static void fill_one(lt_attrs *a, const void *arg) { lt_attrs_set(a, 0, arg, sizeof(int)); }

/* A distinct fake descriptor address per index (never dereferenced). */
static const void *desc_at(uintptr_t i) { return (const void *)(0x100000 + i * 64); }

static int64_t attr0(const void *d)
{
    lt_attrs a;
    return lt_slot_get(KIND, d, &a) ? lt_attrs_int(&a, 0, -1) : -1;
}

static void test_create_set_destroy(void **state)
{
    (void)state;
    const void *d = desc_at(1);
    int v = 5, w = 9;
    assert_true(lt_slot_reset(KIND, d, fill_one, &v));
    assert_int_equal(attr0(d), 5);
    uint64_t v1 = lt_slot_version(KIND, d);
    assert_true(v1 != 0);
    assert_int_equal(lt_slot_version(KIND + 1, d), 0); /* another kind: no shadow */
    lt_slot_set(d, ATTR, &w, sizeof w);
    uint64_t v2 = lt_slot_version(KIND, d);
    assert_true(v2 != 0 && v2 != v1);
    lt_attrs a;
    assert_true(lt_slot_get(KIND, d, &a));
    assert_int_equal(lt_attrs_int(&a, ATTR, -1), 9);
    lt_slot_forget(d);
    assert_int_equal(lt_slot_version(KIND, d), 0);
    lt_slot_set(d, ATTR, &w, sizeof w); /* no shadow: nothing happens */
    assert_int_equal(lt_slot_version(KIND, d), 0);
}

/* The PyTorch pattern: the same few addresses made and destroyed again and
 * again. Each new descriptor starts from its own creation arguments, and
 * its version was never seen before. */
static void test_reuse(void **state)
{
    (void)state;
    uint64_t last = 0;
    for (int i = 0; i < 10000; i++) {
        const void *d = desc_at(100 + i % 3);
        int v = i;
        assert_true(lt_slot_reset(KIND, d, fill_one, &v));
        assert_int_equal(attr0(d), i);
        lt_attrs a;
        assert_true(lt_slot_get(KIND, d, &a));
        assert_int_equal(a.n, 1);
        uint64_t ver = lt_slot_version(KIND, d);
        assert_true(ver != last);
        last = ver;
        lt_slot_forget(d);
    }
}

/* A reset of a descriptor whose destroy was never seen reuses its slot. */
static void test_stale_reset(void **state)
{
    (void)state;
    const void *d = desc_at(300);
    int v = 1, w = 2;
    assert_true(lt_slot_reset(KIND, d, fill_one, &v));
    lt_slot_set(d, ATTR, &v, sizeof v);
    assert_true(lt_slot_reset(KIND, d, fill_one, &w));
    lt_attrs a;
    assert_true(lt_slot_get(KIND, d, &a));
    assert_int_equal(a.n, 1);
    assert_int_equal(lt_attrs_int(&a, 0, -1), 2);
    lt_slot_forget(d);
    assert_int_equal(lt_slot_version(KIND, d), 0);
}

/* Filling the pool: every descriptor gets a shadow or none, never a wrong
 * one; those that got one keep it; freeing them makes room again. */
static void test_exhaustion(void **state)
{
    (void)state;
    enum { N = LT_SLOTS + 200 };
    static bool got[N];
    int shadows = 0;
    for (int i = 0; i < N; i++) {
        int v = i;
        got[i] = lt_slot_reset(KIND, desc_at(1000 + i), fill_one, &v);
        shadows += got[i];
    }
    assert_true(shadows <= LT_SLOTS);
    assert_true(shadows < N);
    for (int i = 0; i < N; i++)
        assert_int_equal(attr0(desc_at(1000 + i)), got[i] ? i : -1);
    for (int i = 0; i < N; i++)
        lt_slot_forget(desc_at(1000 + i));
    for (int i = 0; i < N; i++)
        assert_int_equal(attr0(desc_at(1000 + i)), -1);
    int v = 42;
    assert_true(lt_slot_reset(KIND, desc_at(1000), fill_one, &v));
    assert_int_equal(attr0(desc_at(1000)), 42);
    lt_slot_forget(desc_at(1000));
}

/* Threads each cycling through descriptors of their own, with one shared
 * descriptor read by all while one thread sets it: every read is a value
 * some set wrote whole (both attributes equal), never a mix. */
enum { THREADS = 4, ROUNDS = 20000 };
static const void *shared_desc;

static void *worker(void *arg)
{
    uintptr_t t = (uintptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        const void *d = desc_at(5000 + t * 8 + i % 8);
        int v = (int)(t * ROUNDS + i);
        if (!lt_slot_reset(KIND, d, fill_one, &v))
            return (void *)1;
        lt_slot_set(d, ATTR, &v, sizeof v);
        lt_attrs a;
        if (!lt_slot_get(KIND, d, &a) || lt_attrs_int(&a, 0, -1) != v || lt_attrs_int(&a, ATTR, -1) != v)
            return (void *)1;
        lt_slot_forget(d);
        if (t == 0) {
            lt_slot_set(shared_desc, 0, &v, sizeof v);
            lt_slot_set(shared_desc, ATTR, &v, sizeof v);
        } else if (lt_slot_get(KIND, shared_desc, &a) && lt_attrs_int(&a, 0, -1) < 0) {
            return (void *)1;
        }
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    shared_desc = desc_at(9000);
    int v = 0;
    assert_true(lt_slot_reset(KIND, shared_desc, fill_one, &v));
    pthread_t th[THREADS];
    for (uintptr_t t = 0; t < THREADS; t++)
        assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)t), 0);
    for (int t = 0; t < THREADS; t++) {
        void *r;
        pthread_join(th[t], &r);
        assert_null(r);
    }
    lt_slot_forget(shared_desc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_set_destroy), cmocka_unit_test(test_reuse),
        cmocka_unit_test(test_stale_reset),        cmocka_unit_test(test_exhaustion),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
