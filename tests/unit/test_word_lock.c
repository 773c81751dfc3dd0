/* The engine lock (preload/core/word_lock.h): mutual exclusion under
 * contention, waiters woken, and the word free again afterwards. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "../../preload/core/word_lock.c"

enum { THREADS = 4, ROUNDS = 200000 };

static pl_word_lock lock;
static long counter; /* plain: only the lock keeps increments whole */

static void *bump(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pl_word_lock_take(&lock);
        long v = counter;
        if (i % 1024 == 0)
            sched_yield(); /* let others find the word held, so they sleep on it */
        counter = v + 1;
        pl_word_lock_give(&lock);
    }
    return NULL;
}

static void test_exclusion_under_contention(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, bump, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(counter, (long)THREADS * ROUNDS);
    assert_int_equal(atomic_load(&lock), 0);
}

static void *take_and_give(void *arg)
{
    pl_word_lock_take(arg);
    pl_word_lock_give(arg);
    return NULL;
}

static void test_waiter_woken(void **state)
{
    (void)state;
    pl_word_lock w = 0;
    pthread_t t;
    pl_word_lock_take(&w);
    assert_int_equal(pthread_create(&t, NULL, take_and_give, &w), 0);
    while (atomic_load(&w) != 2) /* the other thread marks the word and sleeps */
        sched_yield();
    pl_word_lock_give(&w);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(atomic_load(&w), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exclusion_under_contention),
        cmocka_unit_test(test_waiter_woken),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
