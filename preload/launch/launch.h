/* Kernel launches, whichever route they came by, described once.
 *
 * A hook fills a pl_launch, calls pl_launch_begin, runs the launch unless
 * told not to, and calls pl_launch_end. What a launch means (a transpose a
 * kernel rule recognises, or an unknown access whose parameter bytes may
 * point anywhere) is decided here, in launch.c, and nowhere else. */
#ifndef TF_LAUNCH_H
#define TF_LAUNCH_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "core/state.h"

/* How a route learns parameter i's offset and size; 0 on success. */
typedef int (*pl_param_info_fn)(const void *fn, size_t i, size_t *offset, size_t *size);

/* A launch as a replay issues it again: everything deep-copied. */
typedef struct pl_launch_replay pl_launch_replay;
typedef int (*pl_relaunch_fn)(const pl_launch_replay *r);
struct pl_launch_replay {
    pl_relaunch_fn relaunch;      /* the route's real launch function, called with these */
    const void *fn;
    unsigned grid[3], block[3];
    size_t shared_mem;
    uint64_t stream;              /* its stream id (pl_stream_id) */
    uint64_t on;                  /* the handle this issue goes to: set by the replay */
    void **args;                  /* one pointer per parameter, into a private copy */
    const void *attrs;            /* launch attributes of the Ex routes (a private copy) */
    unsigned nattrs;
    void *ctx;                    /* the CUcontext current at the launch */
    uint64_t dst;                 /* the recognised transpose's output */
    size_t bytes_len;             /* parameter bytes at args[0]'s block */
    unsigned char *bytes;
};

typedef struct pl_launch {
    const char *api;
    const char *name;             /* device (mangled) name, or NULL */
    unsigned grid[3], block[3];
    size_t shared_mem;
    uint64_t raw_stream;          /* the stream argument as given */
    bool ptsz_entry;              /* given to a per-thread entry point */
    uint64_t stream;              /* its id (pl_stream_id), set by pl_launch_begin when needed */
    void **args;                  /* one pointer per parameter (kernelParams) */
    const void *packed;           /* or the parameter bytes already packed */
    size_t packed_len;
    const void *fn;               /* the launched handle */
    pl_param_info_fn param_info;
    pl_relaunch_fn relaunch;
    const void *attrs;            /* Ex routes: attribute array */
    size_t attr_size;
    unsigned nattrs;
    /* filled by pl_launch_begin, read by pl_launch_end */
    int kind;
    bool refused;                 /* a rule matched but could not describe it */
    bool known;                   /* learning gave acc: a measured signature's proven footprint */
    tf_why why;                   /* why a matched rule could not describe it */
    tf_access acc;
    tf_transpose_desc desc;
    unsigned char *params;
    size_t params_len;
} pl_launch;

/* learn_watch.c's tables (see there): a ring of the last PL_LEARN_RECENT
 * functions launched, and a direct-mapped table of PL_LEARN_WATCHED watched
 * functions. Both fixed-size: the cost of a note and learning's memory do
 * not grow with the kernels seen. */
#define PL_LEARN_RECENT 32
#define PL_LEARN_WATCHED 256
extern TF_HIDDEN _Atomic(const void *) pl_learn_recent_fns[PL_LEARN_RECENT];
extern TF_HIDDEN _Atomic unsigned pl_learn_recent_next;
extern TF_HIDDEN _Atomic(const void *) pl_learn_watched_fns[PL_LEARN_WATCHED];

static inline unsigned pl_learn_slot(const void *fn)
{
    return (unsigned)(((uintptr_t)fn >> 4) * 0x9E3779B97F4A7C15ull >> 56) % PL_LEARN_WATCHED;
}

/* Notes fn among the last few launched; true when learning watches it.
 * Relaxed: two racing launches may lose one note (learn_watch.c). */
static inline bool learn_recent(const void *fn)
{
    unsigned i = atomic_load_explicit(&pl_learn_recent_next, memory_order_relaxed);
    atomic_store_explicit(&pl_learn_recent_next, i + 1, memory_order_relaxed);
    atomic_store_explicit(&pl_learn_recent_fns[i % PL_LEARN_RECENT], fn, memory_order_relaxed);
    if (!atomic_load_explicit(&pl_learn_unwatched, memory_order_relaxed)) {
        /* In this order, sequentially consistent: see state.c's publish_quiet. */
        atomic_store(&pl_learn_unwatched, true);
        atomic_store(&pl_consumer_quiet_now, false);
    }
    return atomic_load_explicit(&pl_learn_watched_fns[pl_learn_slot(fn)], memory_order_relaxed) == fn;
}

/* A family of kernels that a layer above decodes (aten/, PyTorch's
 * launches). launch/ names none: a family registers with PL_LAUNCH_FAMILY
 * (a linker section, as core/setup.h), is told of every kernel the runtime
 * registers, and sets pl_family_seen_now (core/state.h) once one of its
 * kernels is known; from then on launches are not quiet and each is asked
 * here. `kernel` is the family's own description of a handle. */
typedef struct pl_launch_family {
    void (*registered)(const void *host_fn, const char *name);
    void (*alias)(const void *alias, const void *handle);
    const void *(*kernel)(const void *fn, const char *name); /* NULL: not the family's */
    bool (*watch)(const void *fn);           /* needs a look while nothing is pending */
    bool (*copy)(const void *kernel);        /* may become a producer */
    int (*launch)(pl_launch *l, const void *kernel, bool *deferred); /* PL_FAMILY_* */
} pl_launch_family;
enum { PL_FAMILY_NONE, PL_FAMILY_QUIET, PL_FAMILY_PRODUCER, PL_FAMILY_ACCESS };
#define PL_LAUNCH_FAMILY(name, ...)                                                         \
    static const pl_launch_family pl_launch_family_##name                                   \
        __attribute__((used, section("pl_launch_families"), aligned(sizeof(void *)))) = { __VA_ARGS__ }
/* The family, or NULL when none is linked in. */
const pl_launch_family *pl_launch_family_get(void);
/* The runtime's registrations, passed on to the family. */
void pl_launch_family_registered(const void *host_fn, const char *name);
void pl_launch_family_alias(const void *alias, const void *handle);

/* Whether a launch of `fn` needs describing at all (fast path otherwise).
 * While learning, it also notes fn among the recent launches. Inline:
 * every launch that is neither quiet nor learning-only asks (those two
 * states are the hooks' entries, launch_entry.h). */
static inline bool pl_launch_watching(const void *fn)
{
    if (atomic_load_explicit(&pl_launch_quiet_now, memory_order_acquire) || !pl_active())
        return false;
    if (pl_learning_now && learn_recent(fn))
        return true;
    return pl_state_rules() || atomic_load_explicit(&pl_pending_now, memory_order_acquire) != 0 ||
           (atomic_load_explicit(&pl_family_seen_now, memory_order_relaxed) && pl_launch_family_get()->watch(fn));
}

/* Learning's look at an unknown launch of a watched function: true when it
 * became a producer (*deferred as launch_produce). learning/ registers it
 * when the engine is made with TRANSFOLD_LEARN on (launch.c calls it, and
 * knows nothing above itself). */
typedef bool (*pl_launch_learn_fn)(pl_launch *l, bool *deferred);
extern TF_HIDDEN pl_launch_learn_fn pl_launch_learn;

/* True when the launch must not run now (it became a pending record). */
bool pl_launch_begin(pl_launch *l);
void pl_launch_end(pl_launch *l, bool ok);

#endif
