/* A lock in one word, for the engine (state.c): 0 free, 1 held, 2 held
 * with threads waiting. Uncontended, taking and releasing it is one atomic
 * instruction each, where a pthread mutex costs about 25 instructions a
 * call, and every described call takes the engine lock twice. Waiters sleep
 * on the word with futex(2); a released word with waiters wakes one. */
#ifndef TF_WORD_LOCK_H
#define TF_WORD_LOCK_H
#include <stdatomic.h>

typedef _Atomic int pl_word_lock; /* zero-initialised: free */

void pl_word_lock_wait(pl_word_lock *w); /* the contended path */
void pl_word_lock_wake(pl_word_lock *w);

static inline void pl_word_lock_take(pl_word_lock *w)
{
    int free_ = 0;
    if (!atomic_compare_exchange_strong_explicit(w, &free_, 1, memory_order_acquire, memory_order_relaxed))
        pl_word_lock_wait(w);
}

static inline void pl_word_lock_give(pl_word_lock *w)
{
    if (atomic_exchange_explicit(w, 0, memory_order_release) == 2)
        pl_word_lock_wake(w);
}

#endif
