/* Engine lifetime, the lock, and fork safety. */
#include <pthread.h>
#include <stdlib.h>

#include "launch_internal.h"
#include "learn.h"
#include "learn_rules.h"
#include "rules.h"
#include "state.h"
#include "late_marks.h"
#include "word_lock.h"

__thread int tf_depth __attribute__((tls_model("initial-exec")));
tf_env tf_env_now;
_Atomic size_t tf_pending_now;
_Atomic int tf_mode_now = TF_MODE_OFF;
bool tf_learning_now;
_Atomic bool tf_learn_open_now;
_Atomic bool tf_launch_quiet_now, tf_consumer_quiet_now;

static pthread_once_t tf_once = PTHREAD_ONCE_INIT;
static tf_word_lock tf_mutex; /* the engine lock (word_lock.h) */
static tf_engine *tf_engine_instance;
static tf_config tf_cfg;
static tf_rules *tf_rules_loaded;

static pthread_once_t tf_env_once = PTHREAD_ONCE_INIT;

static void tf_read_env(void)
{
    tf_env_now = tf_env_read();
    atomic_store(&tf_mode_now, tf_env_now.mode);
}

static pthread_once_t tf_exit_once = PTHREAD_ONCE_INIT;
static bool tf_rules_failed;   /* the layer turned itself off over TRANSFOLD_RULES */
static bool tf_forked_child;   /* this process is a fork of the one the engine served */
static __thread bool tf_holding __attribute__((tls_model("initial-exec")));

static void close_unless_stderr(FILE *f)
{
    if (f && f != stderr)
        fclose(f);
}

/* Process exit: pending records are dropped (their destinations die with
 * the process) and the summary is written, once. A thread that calls exit
 * while inside the engine (a library aborting from a replay) already holds
 * the lock. */
static void tf_at_exit(void)
{
    bool held = tf_holding;
    if (!held)
        tf_word_lock_take(&tf_mutex);
    tf_engine *e = tf_engine_instance;
    tf_engine_instance = NULL;
    atomic_store(&tf_mode_now, TF_MODE_OFF);
    atomic_store(&tf_pending_now, 0);
    if (e) {
        tf_depth++;
        if (tf_env_now.learn_out)
            tf_learn_write_rules(e, tf_env_now.learn_out);
        tf_engine_free(e);
        tf_depth--;
    } else if (tf_rules_failed && tf_cfg.summary) {
        fprintf(tf_cfg.summary, "transfold: pass-through: TRANSFOLD_RULES could not be used; nothing was changed\n");
    }
    if (!tf_forked_child) {
        close_unless_stderr(tf_cfg.log);
        close_unless_stderr(tf_cfg.summary);
    }
    tf_cfg.log = tf_cfg.summary = NULL;
    if (!held)
        tf_word_lock_give(&tf_mutex);
}

/* Registered at load time, before the program or any library can register
 * its own handlers: atexit runs them in reverse, so ours runs last, after
 * handlers that may still read a pending transpose's destination (a driver
 * API program dumping results at exit). */
static void tf_register_exit(void) { atexit(tf_at_exit); }

/* Reading the environment and registering the exit handler are the only
 * work done at load time. A library initialised before us may already have
 * called a hook; then the first hook did both. */
__attribute__((constructor)) static void tf_load(void)
{
    pthread_once(&tf_env_once, tf_read_env);
    pthread_once(&tf_exit_once, tf_register_exit);
}

/* The child of a fork has one thread; whatever the parent held the lock
 * for was finished by prepare/parent, so a fresh (free) lock is consistent. The
 * child cannot replay into the parent's CUDA context and must not write the
 * parent's summary a second time: the layer is off there, and its records
 * and files are the parent's. */
static void tf_fork_prepare(void) { tf_word_lock_take(&tf_mutex); }
static void tf_fork_parent(void) { tf_word_lock_give(&tf_mutex); }
static void tf_fork_child(void)
{
    atomic_store(&tf_mutex, 0);
    tf_forked_child = true;
    tf_engine_instance = NULL; /* left allocated: it is the parent's to free */
    atomic_store(&tf_mode_now, TF_MODE_OFF);
    atomic_store(&tf_pending_now, 0);
    tf_learning_now = false;
}

/* A rules file that does not parse turns the whole layer off: a half-read
 * rule set could miss a transpose's real extent. */
static bool load_rules(void)
{
    char err[512];
    if (!tf_env_now.rules)
        return true;
    tf_rules_loaded = tf_rules_load(tf_env_now.rules, err, sizeof err);
    if (!tf_rules_loaded)
        fprintf(stderr, "transfold: TRANSFOLD_RULES: %s; running as pass-through\n", err);
    return tf_rules_loaded != NULL;
}

const tf_rules *tf_state_rules(void)
{
    return tf_rules_loaded;
}

static void tf_create(void)
{
    pthread_once(&tf_env_once, tf_read_env);
    if (atomic_load(&tf_mode_now) == TF_MODE_OFF)
        return;
    pthread_once(&tf_exit_once, tf_register_exit);
    if (!load_rules()) {
        atomic_store(&tf_mode_now, TF_MODE_OFF);
        tf_rules_failed = tf_env_open(&tf_env_now, &tf_cfg);
        return;
    }
    bool opened = tf_env_open(&tf_env_now, &tf_cfg);
    tf_cfg.sync = tf_late_marks();
    if (!opened || !(tf_engine_instance = tf_engine_new(&tf_cfg))) {
        atomic_store(&tf_mode_now, TF_MODE_OFF);
        return;
    }
    if (tf_env_now.learn) {
        tf_learn_knobs k = { tf_env_now.learn_k, tf_env_now.learn_max_bytes, tf_env_now.learn_max_candidates, 1024,
                             learn_watch_recent };
        tf_learn_setup(tf_engine_instance, &k);
        tf_learning_now = tf_learn_on(tf_engine_instance);
    }
    pthread_atfork(tf_fork_prepare, tf_fork_parent, tf_fork_child);
}

bool tf_layer_on(void)
{
    pthread_once(&tf_env_once, tf_read_env);
    return atomic_load(&tf_mode_now) != TF_MODE_OFF;
}

_Atomic bool tf_state_ready;

void tf_state_create(void)
{
    pthread_once(&tf_once, tf_create);
    tf_unlock(tf_lock()); /* publishes the quiet flags */
    atomic_store_explicit(&tf_state_ready, true, memory_order_release);
}

tf_engine *tf_lock(void)
{
    tf_depth++;
    tf_word_lock_take(&tf_mutex);
    tf_holding = true;
    return tf_engine_instance;
}

/* With the lock held, after tf_pending_now and tf_learn_open_now. A launch
 * that sets learning's unwatched flag clears tf_consumer_quiet_now after it
 * (sequentially consistent, both): either that clear comes after our store,
 * or the check after our store sees the flag. */
static void publish_quiet(void)
{
    bool off = atomic_load(&tf_mode_now) == TF_MODE_OFF;
    bool idle = atomic_load(&tf_pending_now) == 0;
    bool learning = tf_learning_now && !off;
    atomic_store(&tf_launch_quiet_now, off || (idle && !learning && !tf_rules_loaded));
    bool consumers = off || (idle && !(learning && atomic_load(&tf_learn_open_now)));
    atomic_store(&tf_consumer_quiet_now, consumers);
    if (consumers && learning && learn_recent_unwatched())
        atomic_store(&tf_consumer_quiet_now, false);
}

void tf_unlock(tf_engine *e)
{
    atomic_store_explicit(&tf_pending_now, e ? tf_engine_pending(e) : 0, memory_order_release);
    if (tf_learning_now)
        atomic_store_explicit(&tf_learn_open_now, e && tf_learn_open(e), memory_order_relaxed);
    publish_quiet();
    tf_holding = false;
    tf_word_lock_give(&tf_mutex);
    tf_depth--;
}

void tf_note_alloc(const void *base, size_t size, tf_mem_kind kind)
{
    if (!base || !tf_active())
        return;
    tf_engine *e = tf_lock();
    if (e)
        tf_alloc(e, (uint64_t)(uintptr_t)base, size, kind);
    tf_unlock(e);
}

tf_engine *tf_note_free_begin(const void *base, uint64_t stream, const char *api)
{
    if (!base || !tf_active())
        return NULL;
    tf_engine *e = tf_lock();
    if (e)
        tf_free_begin(e, (uint64_t)(uintptr_t)base, stream, api);
    else
        tf_unlock(e);
    return e;
}

void tf_note_free_end(tf_engine *e, const void *base, const char *api, bool ok)
{
    if (!e)
        return;
    tf_free_end(e, (uint64_t)(uintptr_t)base, api, ok);
    tf_unlock(e);
}

void tf_note_access_begin(const tf_access *a)
{
    tf_engine *e = tf_lock();
    if (e)
        tf_access_begin(e, a);
    tf_unlock(e);
}

void tf_note_access_end(const tf_access *a, bool ok)
{
    tf_engine *e = tf_lock();
    if (e)
        tf_access_end(e, a, ok);
    tf_unlock(e);
}

void tf_note_materialize_all(uint64_t stream, tf_why reason)
{
    tf_engine *e = tf_lock();
    if (e)
        tf_materialize_all(e, stream, reason);
    tf_unlock(e);
}

void tf_note_materialize_stream(uint64_t stream, tf_why reason)
{
    if (!tf_watching())
        return;
    tf_engine *e = tf_lock();
    if (e)
        tf_materialize_stream(e, stream, reason);
    tf_unlock(e);
}

void tf_note_capture_end(uint64_t stream)
{
    tf_note_materialize_stream(stream, TF_WHY(capture_ends));
}

/* Every stream, not only the captured one: in global capture mode other
 * streams' work may join the capture through events. */
void tf_note_capture_begin(uint64_t stream)
{
    if (tf_watching())
        tf_note_materialize_all(stream, TF_WHY(capture_begins));
}

/* The graph may touch anything: every record runs first, and the launch
 * waits for what ran late on other streams. */
void tf_note_graph_launch(uint64_t stream)
{
    if (!tf_watching())
        return;
    tf_note_materialize_all(stream, TF_WHY(graph_launch));
    tf_access a = { .api = "graph launch", .stream = stream, .unknown = true };
    tf_note_access_begin(&a);
    tf_note_access_end(&a, true);
}
