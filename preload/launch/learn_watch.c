/* The cheap front of learning: an unknown launch costs a store into a ring
 * of recent functions and one lookup in a direct-mapped table of watched
 * functions. Only when a GEMM reads memory whose writer learning has not
 * noted are the recent functions watched, and only watched functions'
 * launches are noted in full (signature, pointers) for the engine. Both
 * tables are fixed-size: learning's memory stays bounded. Relaxed atomics:
 * a race loses a note, never correctness (proof comes later, on the data).
 * Noting a launch (learn_recent) is inline in launch.h: every launch pays it
 * while learning. */
#include <stdatomic.h>
#include <stdint.h>

#include "launch/launch_internal.h"

/* Sizes are fixed (launch.h): noting a launch is a constant number of
 * loads and stores however many kernels the process has seen. */
_Atomic(const void *) pl_learn_recent_fns[PL_LEARN_RECENT];
_Atomic unsigned pl_learn_recent_next;
_Atomic(const void *) pl_learn_watched_fns[PL_LEARN_WATCHED];

bool learn_watched(const void *fn)
{
    return atomic_load_explicit(&pl_learn_watched_fns[pl_learn_slot(fn)], memory_order_relaxed) == fn;
}

bool learn_recent_unwatched(void)
{
    return pl_learn_unwatched_now();
}

void learn_watch_recent(void)
{
    if (!atomic_exchange_explicit(&pl_learn_unwatched, false, memory_order_relaxed))
        return; /* nothing launched since: the ring is watched already */
    for (int i = 0; i < PL_LEARN_RECENT; i++) {
        const void *fn = atomic_load_explicit(&pl_learn_recent_fns[i], memory_order_relaxed);
        if (fn)
            atomic_store_explicit(&pl_learn_watched_fns[pl_learn_slot(fn)], fn, memory_order_relaxed);
    }
}
