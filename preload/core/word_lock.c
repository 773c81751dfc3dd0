/* The contended paths of pl_word_lock (word_lock.h). A thread that finds
 * the word held marks it 2 (someone waits) and sleeps until it can swap a
 * 0 for its own 2: it cannot know whether others still wait, so it keeps
 * the mark, and its release wakes one thread (at worst a spurious wake). */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/word_lock.h"

void pl_word_lock_wait(pl_word_lock *w)
{
    while (atomic_exchange_explicit(w, 2, memory_order_acquire) != 0)
        syscall(SYS_futex, (int *)w, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
}

void pl_word_lock_wake(pl_word_lock *w)
{
    syscall(SYS_futex, (int *)w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
