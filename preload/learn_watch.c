/* The cheap front of learning: an unknown launch costs a store into a ring
 * of recent functions and one lookup in a direct-mapped table of watched
 * functions. Only when a GEMM reads memory whose writer learning has not
 * noted are the recent functions watched, and only watched functions'
 * launches are noted in full (signature, pointers) for the engine. Both
 * tables are fixed-size: learning's memory stays bounded. Relaxed atomics:
 * a race loses a note, never correctness (proof comes later, on the data). */
#include <stdatomic.h>
#include <stdint.h>

#include "launch_internal.h"

#define RECENT 32
#define WATCHED 256

static _Atomic(const void *) recent[RECENT];
static _Atomic unsigned recent_next;
static _Atomic(const void *) watched[WATCHED];
static _Atomic bool unwatched_recent; /* launches since the recent functions were last watched */

static unsigned slot(const void *fn)
{
    return (unsigned)(((uintptr_t)fn >> 4) * 0x9E3779B97F4A7C15ull >> 56) % WATCHED;
}

bool learn_watched(const void *fn)
{
    return atomic_load_explicit(&watched[slot(fn)], memory_order_relaxed) == fn;
}

bool learn_recent(const void *fn)
{
    unsigned i = atomic_load_explicit(&recent_next, memory_order_relaxed);
    atomic_store_explicit(&recent_next, i + 1, memory_order_relaxed);
    atomic_store_explicit(&recent[i % RECENT], fn, memory_order_relaxed);
    if (!atomic_load_explicit(&unwatched_recent, memory_order_relaxed)) {
        /* In this order, sequentially consistent: see state.c's publish_quiet. */
        atomic_store(&unwatched_recent, true);
        atomic_store(&pl_consumer_quiet_now, false);
    }
    return learn_watched(fn);
}

bool learn_recent_unwatched(void)
{
    return atomic_load_explicit(&unwatched_recent, memory_order_relaxed);
}

void learn_watch_recent(void)
{
    if (!atomic_exchange_explicit(&unwatched_recent, false, memory_order_relaxed))
        return; /* nothing launched since: the ring is watched already */
    for (int i = 0; i < RECENT; i++) {
        const void *fn = atomic_load_explicit(&recent[i], memory_order_relaxed);
        if (fn)
            atomic_store_explicit(&watched[slot(fn)], fn, memory_order_relaxed);
    }
}
