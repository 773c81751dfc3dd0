/* The one engine of the process, the lock around it, and the per-thread
 * depth that keeps nested and internal calls away from it.
 *
 * Every hook follows the same shape:
 *   if (!tf_watching()) return TF_PASS(real(...));   -- the fast path
 *   e = tf_lock(); <ask the engine>; tf_unlock(e);
 *   <run the real function, rewritten or not, under TF_PASS>
 *   e = tf_lock(); <report the outcome>; tf_unlock(e);
 */
#ifndef TF_STATE_H
#define TF_STATE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "engine.h"

/* > 0 while this thread is inside an intercepted call (the library we
 * called may call other hooked functions: those are its business) or inside
 * the engine (our replays call real functions directly). */
extern __thread int tf_depth __attribute__((tls_model("initial-exec")));

/* Runs `call` with the depth raised; evaluates to its result. */
#define TF_PASS(call) ({ tf_depth++; __typeof__(call) tf_r_ = (call); tf_depth--; tf_r_; })
#define TF_PASS_VOID(call) do { tf_depth++; call; tf_depth--; } while (0)
/* A hook's work beyond the nested pass-through (TF_NESTED_REAL, hooks.h),
 * kept out of line so that the hook itself needs no stack frame. */
#define TF_SLOW_PATH __attribute__((noinline))

extern tf_env tf_env_now;             /* read at load time */
extern _Atomic size_t tf_pending_now; /* tf_engine_pending after the last engine call */
extern _Atomic int tf_mode_now;       /* can drop to off if initialisation fails */
extern bool tf_learning_now;          /* set once, before any hook runs past tf_active */

/* Creates the engine on first use; inline once it has been tried. */
extern _Atomic bool tf_state_ready;
void tf_state_create(void);
static inline void tf_state_init(void)
{
    if (!atomic_load_explicit(&tf_state_ready, memory_order_acquire))
        tf_state_create();
}

/* Whether the layer is on, from the environment alone: for the resolver
 * routes, which may run too early (inside an allocator's initialisation)
 * to create anything. */
bool tf_layer_on(void);

/* The kernel rules of TRANSFOLD_RULES, or NULL when none are given. */
struct tf_rules;
const struct tf_rules *tf_state_rules(void);

/* The layer is on and this is a top-level call: it must be described
 * (allocations and frees always are, to keep the provenance table whole). */
static inline bool tf_active(void)
{
    if (tf_depth > 0)
        return false;
    tf_state_init();
    return atomic_load_explicit(&tf_mode_now, memory_order_relaxed) != TF_MODE_OFF;
}

/* Active and something is pending: a call that cannot create a record
 * (copy, set, launch, GEMM) only matters then. */
static inline bool tf_watching(void)
{
    /* Pending first: it is 0 on every pass-through call, and only an engine
     * that exists can have made it anything else. */
    return atomic_load_explicit(&tf_pending_now, memory_order_acquire) != 0 && tf_active();
}

/* Learning: a noted launch could still become a candidate (published at
 * each unlock), or functions ran that a GEMM may want watched. */
extern _Atomic bool tf_learn_open_now;
bool learn_recent_unwatched(void);

/* The pass-through calls' one load each, published at each unlock and when
 * the engine is created (false until then, so the first call creates it):
 *   tf_launch_quiet_now: no launch at depth 0 needs a look (nothing pending,
 *     no rules, no learning);
 *   tf_consumer_quiet_now: no GEMM needs a look (nothing pending, and no
 *     learning, or no candidate open and nothing launched since the recent
 *     functions were watched; learn_recent clears it).
 * Either may be false when the long test below would say the same. */
extern _Atomic bool tf_launch_quiet_now, tf_consumer_quiet_now;

/* A GEMM must be described: something is pending, or it may make an
 * unknown kernel a learning candidate. */
static inline bool tf_consumer_watching(void)
{
    if (atomic_load_explicit(&tf_consumer_quiet_now, memory_order_acquire))
        return false;
    return tf_active() &&
           (atomic_load_explicit(&tf_pending_now, memory_order_acquire) != 0 ||
            (tf_learning_now && (atomic_load_explicit(&tf_learn_open_now, memory_order_relaxed) ||
                                 learn_recent_unwatched())));
}

/* Lock the engine (raising the depth: the engine may replay). */
tf_engine *tf_lock(void);
void tf_unlock(tf_engine *e);

/* Engine shortcuts that take the lock themselves. Allocations and frees
 * are noted whenever the layer is active (tf_active), whatever is pending. */
void tf_note_alloc(const void *base, size_t size, tf_mem_kind kind);
/* A free runs between these two with the engine locked, so no other thread
 * can reuse the address before the engine knows whether the free worked. */
tf_engine *tf_note_free_begin(const void *base, uint64_t stream, const char *api);
void tf_note_free_end(tf_engine *e, const void *base, const char *api, bool ok);
#define TF_NOTED_FREE(base, stream, api, call, success)                  \
    ({                                                                   \
        tf_engine *tf_fe_ = tf_note_free_begin((base), (stream), (api)); \
        __typeof__(call) tf_fr_ = TF_PASS(call);                         \
        tf_note_free_end(tf_fe_, (base), (api), tf_fr_ == (success));    \
        tf_fr_;                                                          \
    })
void tf_note_access_begin(const tf_access *a);
void tf_note_access_end(const tf_access *a, bool ok);
void tf_note_materialize_all(uint64_t stream, tf_why reason);
/* Records on `stream` run now (it is about to end, or to be captured). */
void tf_note_materialize_stream(uint64_t stream, tf_why reason);
/* Before a capture on `stream` ends: records captured there run first. */
void tf_note_capture_begin(uint64_t stream);
void tf_note_capture_end(uint64_t stream);
/* Before a graph launch: a graph can touch anything, whatever the policy. */
void tf_note_graph_launch(uint64_t stream);



/* Runs `call` (any CUDA-family status, 0 = success) as the access `a`:
 * the engine sees it before and after; evaluates to the status. */
#define TF_AS_ACCESS(a, call) ({                          \
        tf_note_access_begin(&(a));                       \
        __typeof__(call) tf_s_ = TF_PASS(call);           \
        tf_note_access_end(&(a), tf_s_ == 0);             \
        tf_s_; })

#endif
