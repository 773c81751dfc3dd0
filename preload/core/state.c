/* Engine lifetime, the lock, and fork safety. */
#include <pthread.h>
#include <stdlib.h>

#include "core/setup.h"
#include "core/state.h"
#include "core/word_lock.h"
#include "learn/learn.h"
#include "rules/rules.h"

__thread int pl_depth __attribute__((tls_model("initial-exec")));
pl_env pl_env_now;
_Atomic size_t pl_pending_now;
_Atomic int pl_mode_now = TF_MODE_OFF;
bool pl_learning_now;
_Atomic bool pl_learn_open_now;
_Atomic bool pl_launch_quiet_now, pl_consumer_quiet_now, pl_launch_learning_only_now;
_Atomic bool pl_family_seen_now;
_Atomic bool pl_learn_unwatched;

/* The section of core/setup.h, bounded by the linker: every layer's part in
 * making and ending the engine. Hidden: no other object may bind to them. */
extern const pl_setup __start_pl_setups[] __attribute__((visibility("hidden")));
extern const pl_setup __stop_pl_setups[] __attribute__((visibility("hidden")));
#define EACH_SETUP(s) for (const pl_setup *s = __start_pl_setups; s < __stop_pl_setups; s++)

static pthread_once_t pl_once = PTHREAD_ONCE_INIT;
static pl_word_lock pl_mutex; /* the engine lock (word_lock.h) */
static tf_engine *pl_engine_instance;
static tf_config pl_cfg;
static tf_rules *pl_rules_loaded;

static pthread_once_t pl_env_once = PTHREAD_ONCE_INIT;

static void pl_read_env(void)
{
    pl_env_now = pl_env_read();
    atomic_store(&pl_mode_now, pl_env_now.mode);
}

static pthread_once_t pl_exit_once = PTHREAD_ONCE_INIT;
static bool pl_rules_failed;   /* the layer turned itself off over TRANSFOLD_RULES */
static bool pl_forked_child;   /* this process is a fork of the one the engine served */
static __thread bool pl_holding __attribute__((tls_model("initial-exec")));

static void close_unless_stderr(FILE *f)
{
    if (f && f != stderr)
        fclose(f);
}

/* Process exit: pending records are dropped (their destinations die with
 * the process) and the summary is written, once. A thread that calls exit
 * while inside the engine (a library aborting from a replay) already holds
 * the lock. */
static void pl_at_exit(void)
{
    bool held = pl_holding;
    if (!held)
        pl_word_lock_take(&pl_mutex);
    tf_engine *e = pl_engine_instance;
    pl_engine_instance = NULL;
    atomic_store(&pl_mode_now, TF_MODE_OFF);
    atomic_store(&pl_launch_learning_only_now, false);
    atomic_store(&pl_pending_now, 0);
    if (e) {
        pl_depth++;
        EACH_SETUP(s)
            if (s->exiting)
                s->exiting(e);
        tf_engine_free(e);
        pl_depth--;
    } else if (pl_rules_failed && pl_cfg.summary) {
        fprintf(pl_cfg.summary, "transfold: pass-through: TRANSFOLD_RULES could not be used; nothing was changed\n");
    }
    if (!pl_forked_child) {
        close_unless_stderr(pl_cfg.log);
        close_unless_stderr(pl_cfg.summary);
    }
    pl_cfg.log = pl_cfg.summary = NULL;
    if (!held)
        pl_word_lock_give(&pl_mutex);
}

/* Registered at load time, before the program or any library can register
 * its own handlers: atexit runs them in reverse, so ours runs last, after
 * handlers that may still read a pending transpose's destination (a driver
 * API program dumping results at exit). */
static void pl_register_exit(void) { atexit(pl_at_exit); }

/* Reading the environment and registering the exit handler are the only
 * work done at load time. A library initialised before us may already have
 * called a hook; then the first hook did both. */
__attribute__((constructor)) static void pl_load(void)
{
    pthread_once(&pl_env_once, pl_read_env);
    pthread_once(&pl_exit_once, pl_register_exit);
}

/* The child of a fork has one thread; whatever the parent held the lock
 * for was finished by prepare/parent, so a fresh (free) lock is consistent. The
 * child cannot replay into the parent's CUDA context and must not write the
 * parent's summary a second time: the layer is off there, and its records
 * and files are the parent's. */
static void pl_fork_prepare(void) { pl_word_lock_take(&pl_mutex); }
static void pl_fork_parent(void) { pl_word_lock_give(&pl_mutex); }
static void pl_fork_child(void)
{
    atomic_store(&pl_mutex, 0);
    pl_forked_child = true;
    pl_engine_instance = NULL; /* left allocated: it is the parent's to free */
    atomic_store(&pl_mode_now, TF_MODE_OFF);
    atomic_store(&pl_launch_learning_only_now, false);
    atomic_store(&pl_pending_now, 0);
    pl_learning_now = false;
}

/* A rules file that does not parse turns the whole layer off: a half-read
 * rule set could miss a transpose's real extent. */
static bool load_rules(void)
{
    char err[512];
    if (!pl_env_now.rules)
        return true;
    pl_rules_loaded = tf_rules_load(pl_env_now.rules, err, sizeof err);
    if (!pl_rules_loaded)
        fprintf(stderr, "transfold: TRANSFOLD_RULES: %s; running as pass-through\n", err);
    return pl_rules_loaded != NULL;
}

const tf_rules *pl_state_rules(void)
{
    return pl_rules_loaded;
}

static void pl_create(void)
{
    pthread_once(&pl_env_once, pl_read_env);
    if (atomic_load(&pl_mode_now) == TF_MODE_OFF)
        return;
    pthread_once(&pl_exit_once, pl_register_exit);
    if (!load_rules()) {
        atomic_store(&pl_mode_now, TF_MODE_OFF);
        pl_rules_failed = pl_env_open(&pl_env_now, &pl_cfg);
        return;
    }
    bool opened = pl_env_open(&pl_env_now, &pl_cfg);
    EACH_SETUP(s)
        if (s->configure)
            s->configure(&pl_cfg);
    if (!opened || !(pl_engine_instance = tf_engine_new(&pl_cfg))) {
        atomic_store(&pl_mode_now, TF_MODE_OFF);
        return;
    }
    EACH_SETUP(s)
        if (s->created)
            s->created(pl_engine_instance);
    pthread_atfork(pl_fork_prepare, pl_fork_parent, pl_fork_child);
}

bool pl_layer_on(void)
{
    pthread_once(&pl_env_once, pl_read_env);
    return atomic_load(&pl_mode_now) != TF_MODE_OFF;
}

_Atomic bool pl_state_ready;

void pl_state_create(void)
{
    pthread_once(&pl_once, pl_create);
    pl_unlock(pl_lock()); /* publishes the quiet flags */
    atomic_store_explicit(&pl_state_ready, true, memory_order_release);
}

tf_engine *pl_lock(void)
{
    pl_depth++;
    pl_word_lock_take(&pl_mutex);
    pl_holding = true;
    return pl_engine_instance;
}

/* Whether the last publish_quiet found the layer on and something pending,
 * and so stored false into all three flags. Read and written with the lock
 * held. */
static bool pl_quiet_busy;

/* With the lock held, after pl_pending_now and pl_learn_open_now. A launch
 * that sets learning's unwatched flag clears pl_consumer_quiet_now after it
 * (sequentially consistent, both): either that clear comes after our store,
 * or the check after our store sees the flag. */
static void publish_quiet(void)
{
    bool off = atomic_load(&pl_mode_now) == TF_MODE_OFF;
    bool idle = atomic_load(&pl_pending_now) == 0;
    bool learning = pl_learning_now && !off;
    pl_quiet_busy = !off && !idle;
    bool aten = atomic_load_explicit(&pl_family_seen_now, memory_order_relaxed); /* a family's launches (ATen's copies) may be transposes */
    atomic_store(&pl_launch_quiet_now, off || (idle && !learning && !pl_rules_loaded && !aten));
    atomic_store(&pl_launch_learning_only_now, idle && learning && !pl_rules_loaded && !aten);
    /* with output folding every GEMM is looked at: it may be deferred */
    bool consumers = off || (idle && !(learning && atomic_load(&pl_learn_open_now)) && !pl_env_now.output_fold);
    atomic_store(&pl_consumer_quiet_now, consumers);
    if (consumers && learning && pl_learn_unwatched_now())
        atomic_store(&pl_consumer_quiet_now, false);
}

/* Two shortcuts while something stays pending (every unlock of a program
 * with a transpose deferred):
 *  - pl_learn_open_now is read only when nothing is pending (publish_quiet,
 *    pl_consumer_watching, both after a zero pl_pending_now), so it is asked
 *    only at an unlock that leaves nothing pending, and stored before
 *    pending is, so a reader who acquires that zero sees it;
 *  - with something pending and the layer on, publish_quiet stores false
 *    into all three flags. When the last one did so too, they still hold
 *    false: only publish_quiet (with the lock held) ever stores true into
 *    them, launches only clear pl_consumer_quiet_now, and exit and a fork's
 *    child only clear pl_launch_learning_only_now (turning the mode off,
 *    which the test below sees). */
void pl_unlock(tf_engine *e)
{
    size_t pending = e ? tf_engine_pending(e) : 0;
    if (pending == 0 && pl_learning_now)
        atomic_store_explicit(&pl_learn_open_now, e && tf_learn_open(e), memory_order_relaxed);
    atomic_store_explicit(&pl_pending_now, pending, memory_order_release);
    if (!(pending != 0 && pl_quiet_busy && atomic_load_explicit(&pl_mode_now, memory_order_relaxed) != TF_MODE_OFF))
        publish_quiet();
    pl_holding = false;
    pl_word_lock_give(&pl_mutex);
    pl_depth--;
}

/* The quiet flags again, from outside the engine (aten/registry.c, when
 * libtorch_cuda registers its first kernel): a thread already holding the
 * lock (a library loaded from inside a replay) publishes at its unlock. */
void pl_state_republish(void)
{
    /* Through pl_state_create's own lock and unlock: another caller of
     * pl_lock here changed how GCC inlines it into the allocation notes. */
    if (!pl_holding && atomic_load(&pl_state_ready))
        pl_state_create();
}

void pl_note_alloc(const void *base, size_t size, tf_mem_kind kind)
{
    if (!base || !pl_active())
        return;
    tf_engine *e = pl_lock();
    if (e)
        tf_alloc(e, (uint64_t)(uintptr_t)base, size, kind);
    pl_unlock(e);
}

tf_engine *pl_note_free_begin(const void *base, uint64_t stream, const char *api)
{
    if (!base || !pl_active())
        return NULL;
    tf_engine *e = pl_lock();
    if (e)
        tf_free_begin(e, (uint64_t)(uintptr_t)base, stream, api);
    else
        pl_unlock(e);
    return e;
}

void pl_note_free_end(tf_engine *e, const void *base, const char *api, bool ok)
{
    if (!e)
        return;
    tf_free_end(e, (uint64_t)(uintptr_t)base, api, ok);
    pl_unlock(e);
}

void pl_note_access_begin(const tf_access *a)
{
    tf_engine *e = pl_lock();
    if (e)
        tf_access_begin(e, a);
    pl_unlock(e);
}

void pl_note_access_end(const tf_access *a, bool ok)
{
    tf_engine *e = pl_lock();
    if (e)
        tf_access_end(e, a, ok);
    pl_unlock(e);
}

void pl_note_materialize_all(uint64_t stream, tf_why reason)
{
    tf_engine *e = pl_lock();
    if (e)
        tf_materialize_all(e, stream, reason);
    pl_unlock(e);
}

void pl_note_materialize_stream(uint64_t stream, tf_why reason)
{
    if (!pl_watching())
        return;
    tf_engine *e = pl_lock();
    if (e)
        tf_materialize_stream(e, stream, reason);
    pl_unlock(e);
}

void pl_note_capture_end(uint64_t stream)
{
    pl_note_materialize_stream(stream, TF_WHY(capture_ends));
}

/* Every stream, not only the captured one: in global capture mode other
 * streams' work may join the capture through events. */
void pl_note_capture_begin(uint64_t stream)
{
    if (pl_watching())
        pl_note_materialize_all(stream, TF_WHY(capture_begins));
}

/* The graph may touch anything: every record runs first, and the launch
 * waits for what ran late on other streams. */
void pl_note_graph_launch(uint64_t stream)
{
    if (!pl_watching())
        return;
    pl_note_materialize_all(stream, TF_WHY(graph_launch));
    tf_access a = { .api = "graph launch", .stream = stream, .unknown = true };
    pl_note_access_begin(&a);
    pl_note_access_end(&a, true);
}
