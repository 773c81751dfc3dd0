/* The one engine of the process, the lock around it, and the per-thread
 * depth that keeps nested and internal calls away from it.
 *
 * Every hook follows the same shape:
 *   if (!pl_watching()) return TF_PASS(real(...));   -- the fast path
 *   e = pl_lock(); <ask the engine>; pl_unlock(e);
 *   <run the real function, rewritten or not, under TF_PASS>
 *   e = pl_lock(); <report the outcome>; pl_unlock(e);
 */
#ifndef TF_STATE_H
#define TF_STATE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "engine.h"

/* > 0 while this thread is inside an intercepted call (the library we
 * called may call other hooked functions: those are its business) or inside
 * the engine (our replays call real functions directly). */
extern __thread int pl_depth __attribute__((tls_model("initial-exec")));

/* Runs `call` with the depth raised; evaluates to its result. */
#define TF_PASS(call) ({ pl_depth++; __typeof__(call) pl_r_ = (call); pl_depth--; pl_r_; })
#define TF_PASS_VOID(call) do { pl_depth++; call; pl_depth--; } while (0)
/* A hook's work beyond the nested pass-through (TF_NESTED_REAL, hooks.h),
 * kept out of line so that the hook itself needs no stack frame. */
#define TF_SLOW_PATH __attribute__((noinline))

/* The flags every hook reads are declared hidden: -fvisibility=hidden
 * covers definitions only, and an extern of default visibility is reached
 * through the GOT, one more load on every pass-through call. */
#define TF_HIDDEN __attribute__((visibility("hidden")))

extern TF_HIDDEN pl_env pl_env_now;             /* read at load time */
extern TF_HIDDEN _Atomic size_t pl_pending_now; /* tf_engine_pending after the last engine call */
extern TF_HIDDEN _Atomic int pl_mode_now;       /* can drop to off if initialisation fails */
extern TF_HIDDEN bool pl_learning_now;          /* set once, before any hook runs past pl_active */

/* Creates the engine on first use; inline once it has been tried. */
extern TF_HIDDEN _Atomic bool pl_state_ready;
void pl_state_create(void);
static inline void pl_state_init(void)
{
    if (!atomic_load_explicit(&pl_state_ready, memory_order_acquire))
        pl_state_create();
}

/* Whether the layer is on, from the environment alone: for the resolver
 * routes, which may run too early (inside an allocator's initialisation)
 * to create anything. */
bool pl_layer_on(void);

/* The kernel rules of TRANSFOLD_RULES, or NULL when none are given. */
struct tf_rules;
const struct tf_rules *pl_state_rules(void);

/* The layer is on and this is a top-level call: it must be described
 * (allocations and frees always are, to keep the provenance table whole). */
static inline bool pl_active(void)
{
    if (pl_depth > 0)
        return false;
    pl_state_init();
    return atomic_load_explicit(&pl_mode_now, memory_order_relaxed) != TF_MODE_OFF;
}

/* Active and something is pending: a call that cannot create a record
 * (copy, set, launch, GEMM) only matters then. */
static inline bool pl_watching(void)
{
    /* Pending first: it is 0 on every pass-through call, and only an engine
     * that exists can have made it anything else. */
    return atomic_load_explicit(&pl_pending_now, memory_order_acquire) != 0 && pl_active();
}

/* Learning: a noted launch could still become a candidate (published at
 * each unlock), or functions ran that a GEMM may want watched. */
extern TF_HIDDEN _Atomic bool pl_learn_open_now;
/* Functions were launched since the recent ones were last watched
 * (launch.h's learn_recent sets it, learn_watch.c clears it). */
extern TF_HIDDEN _Atomic bool pl_learn_unwatched;
static inline bool pl_learn_unwatched_now(void)
{
    return atomic_load_explicit(&pl_learn_unwatched, memory_order_relaxed);
}

/* Learning may want the next GEMM described (a candidate may be open). */
static inline bool pl_learn_wants_gemm(void)
{
    return pl_learning_now && (atomic_load_explicit(&pl_learn_open_now, memory_order_relaxed) || pl_learn_unwatched_now());
}

/* The pass-through calls' one load each, published at each unlock and when
 * the engine is created (false until then, so the first call creates it):
 *   pl_launch_quiet_now: no launch at depth 0 needs a look (nothing pending,
 *     no rules, no learning);
 *   pl_consumer_quiet_now: no GEMM needs a look (nothing pending, and no
 *     learning, or no candidate open and nothing launched since the recent
 *     functions were watched; learn_recent clears it);
 *   pl_launch_learning_only_now: a launch at depth 0 needs learning's note
 *     and nothing else (active, learning, nothing pending, no rules).
 * Either quiet flag may be false when the long test below would say the
 * same. The learning-only flag is false whenever the layer is off (cleared
 * at exit and in a fork's child, with the mode), and otherwise stale only
 * as long as pl_pending_now itself could be. */
extern TF_HIDDEN _Atomic bool pl_launch_quiet_now, pl_consumer_quiet_now, pl_launch_learning_only_now;
/* Set once a launch family (launch/launch.h: ATen's) knows one of its
 * kernels: launches are not quiet from then on (publish_quiet). */
extern TF_HIDDEN _Atomic bool pl_family_seen_now;

/* A GEMM must be described: something is pending, or it may make an
 * unknown kernel a learning candidate. */
static inline bool pl_consumer_watching_as(bool deferrable)
{
    if (atomic_load_explicit(&pl_consumer_quiet_now, memory_order_acquire))
        return false;
    return pl_active() &&
           (atomic_load_explicit(&pl_pending_now, memory_order_acquire) != 0 ||
            (deferrable && pl_env_now.output_fold) || pl_learn_wants_gemm());
}
static inline bool pl_consumer_watching(void) { return pl_consumer_watching_as(true); }
/* A GEMM output folding never defers (cublasLtMatmul): with nothing
 * pending and nothing to learn it passes through, descriptors unread. */
static inline bool pl_consumer_watching_undeferred(void) { return pl_consumer_watching_as(false); }

/* Publishes the quiet flags anew unless this thread holds the lock. */
void pl_state_republish(void);

/* Lock the engine (raising the depth: the engine may replay). */
tf_engine *pl_lock(void);
void pl_unlock(tf_engine *e);

/* Engine shortcuts that take the lock themselves. Allocations and frees
 * are noted whenever the layer is active (pl_active), whatever is pending. */
void pl_note_alloc(const void *base, size_t size, tf_mem_kind kind);
/* A free runs between these two with the engine locked, so no other thread
 * can reuse the address before the engine knows whether the free worked. */
tf_engine *pl_note_free_begin(const void *base, uint64_t stream, const char *api);
void pl_note_free_end(tf_engine *e, const void *base, const char *api, bool ok);
#define TF_NOTED_FREE(base, stream, api, call, success)                  \
    ({                                                                   \
        tf_engine *pl_fe_ = pl_note_free_begin((base), (stream), (api)); \
        __typeof__(call) pl_fr_ = TF_PASS(call);                         \
        pl_note_free_end(pl_fe_, (base), (api), pl_fr_ == (success));    \
        pl_fr_;                                                          \
    })
void pl_note_access_begin(const tf_access *a);
void pl_note_access_end(const tf_access *a, bool ok);
void pl_note_materialize_all(uint64_t stream, tf_why reason);
/* Records on `stream` run now (it is about to end, or to be captured). */
void pl_note_materialize_stream(uint64_t stream, tf_why reason);
/* Before a capture on `stream` ends: records captured there run first. */
void pl_note_capture_begin(uint64_t stream);
void pl_note_capture_end(uint64_t stream);
/* Before a graph launch: a graph can touch anything, whatever the policy. */
void pl_note_graph_launch(uint64_t stream);



/* Runs `call` (any CUDA-family status, 0 = success) as the access `a`:
 * the engine sees it before and after; evaluates to the status. */
#define TF_AS_ACCESS(a, call) ({                          \
        pl_note_access_begin(&(a));                       \
        __typeof__(call) pl_s_ = TF_PASS(call);           \
        pl_note_access_end(&(a), pl_s_ == 0);             \
        pl_s_; })

#endif
