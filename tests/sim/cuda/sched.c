/* The scheduler (async.h): which ready item runs next, running it, host
 * functions on their own thread, and blocking the host until a condition
 * holds. SIMCUDA_SCHED_SEED picks the order among the ready items and how
 * far the host runs ahead; the same seed gives the same order in a program
 * with one host thread. A host blocked for SIMCUDA_HANG_S seconds (default
 * 20) with nothing runnable but a host function that does not return is a
 * deadlock a GPU would hang on: reported, then abort(). */
#include "async.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool async_on, queued_on;
static uint64_t rng;
static double hang_s = 20;

static void configure(void)
{
    const char *a = getenv("SIMCUDA_ASYNC"), *seed = getenv("SIMCUDA_SCHED_SEED"), *h = getenv("SIMCUDA_HANG_S");
    async_on = a && strcmp(a, "1") == 0;
    queued_on = async_on || sim_race_on();
    rng = (seed && *seed ? strtoull(seed, NULL, 10) : 1) * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
    if (h && atof(h) > 0)
        hang_s = atof(h);
}

bool sim_async(void) { pthread_once(&once, configure); return async_on; }
bool sim_queued(void) { pthread_once(&once, configure); return queued_on; }

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The host function thread: one at a time, as the driver's. */
static pthread_cond_t progress = PTHREAD_COND_INITIALIZER, hand_off = PTHREAD_COND_INITIALIZER;
static struct sim_queue *host_fn_queue;
static bool host_thread_started;

static bool ready(const struct sim_queue *q)
{
    const struct sim_item *it = q->head;
    if (!it || q->busy)
        return false;
    if (!it->mark && it->w.kind == SIM_WORK_HOST && host_fn_queue)
        return false;
    for (size_t i = 0; i < it->ndeps; i++)
        if (!it->deps[i]->done)
            return false;
    return true;
}

/* The clock of q's head as it runs: after q's previous item, its issuing
 * thread and everything it waited for. */
static void tick(struct sim_queue *q, const struct sim_item *it)
{
    if (q->agent < 0)
        return;
    sim_vc_join(&q->vc, &it->host);
    for (size_t i = 0; i < it->ndeps; i++)
        sim_vc_join(&q->vc, &it->deps[i]->vc);
    q->vc.c[q->agent]++;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void complete_locked(struct sim_queue *q)
{
    struct sim_item *it = q->head;
    if (it->event)
        it->event->ms = now_ms();
    if (it->sync) {
        it->sync->done = true;
        it->sync->vc = q->vc;
    }
    q->busy = false;
    sim_queue_pop_locked(q);
    pthread_cond_broadcast(&progress);
}

static void *host_fn_thread(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&sim_sched_lock);
    for (;;) {
        while (!host_fn_queue)
            pthread_cond_wait(&hand_off, &sim_sched_lock);
        struct sim_queue *q = host_fn_queue;
        struct sim_work w = q->head->w;
        bool replay = q->head->replay;
        pthread_mutex_unlock(&sim_sched_lock);
        sim_work_run(&w, replay);
        pthread_mutex_lock(&sim_sched_lock);
        host_fn_queue = NULL;
        complete_locked(q);
    }
    return NULL;
}

static void start_host_fn(struct sim_queue *q)
{
    if (!host_thread_started) {
        pthread_t t;
        if (pthread_create(&t, NULL, host_fn_thread, NULL) != 0) {
            fprintf(stderr, "simcuda: cannot start the host function thread\n");
            abort();
        }
        pthread_detach(t);
        host_thread_started = true;
    }
    q->busy = true;
    host_fn_queue = q;
    pthread_cond_signal(&hand_off);
}

static void run_head(struct sim_queue *q)
{
    struct sim_item *it = q->head;
    tick(q, it);
    if (it->mark) {
        complete_locked(q);
        return;
    }
    if (it->w.kind == SIM_WORK_HOST) {
        start_host_fn(q);
        return;
    }
    if (q->agent >= 0)
        sim_race_before(&it->w, &q->vc, q->agent);
    /* A fault here is the program's, as an asynchronous error on a GPU:
     * the item is dropped (its trace line is missing). */
    sim_work_run(&it->w, it->replay);
    if (q->agent >= 0)
        sim_race_after(&it->w);
    complete_locked(q);
}

bool sim_step_locked(void)
{
    size_t n = 0;
    for (struct sim_queue *q = sim_all_queues; q; q = q->next_all)
        n += ready(q);
    if (!n)
        return false;
    size_t pick = (size_t)(next_random() % n);
    for (struct sim_queue *q = sim_all_queues; q; q = q->next_all)
        if (ready(q) && pick-- == 0) {
            run_head(q);
            break;
        }
    return true;
}

void sim_after_queue_locked(void)
{
    if (!sim_async()) {
        while (sim_step_locked())
            ;
        return;
    }
    /* Half the time the host runs ahead; otherwise a few items run. */
    uint64_t r = next_random();
    for (unsigned k = (r & 1) ? 0 : 1 + (unsigned)((r >> 1) % 3); k; k--)
        if (!sim_step_locked())
            break;
}

static void hang(const char *what)
{
    fprintf(stderr, "simcuda: deadlock: the host waits in %s for work queued behind a host function that has "
                    "not returned in %g s\n", what, hang_s);
    abort();
}

void sim_drain_until_locked(bool (*done)(void *), void *arg, const char *what)
{
    double since = now_ms();
    while (!done(arg)) {
        if (sim_step_locked()) {
            since = now_ms();
            continue;
        }
        if (!host_fn_queue)
            return; /* nothing queued can run: cannot happen while deps point backwards */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        int r = pthread_cond_timedwait(&progress, &sim_sched_lock, &ts);
        if (r == ETIMEDOUT && now_ms() - since > hang_s * 1e3)
            hang(what);
        if (r != ETIMEDOUT)
            since = now_ms();
    }
}
