/* What the driver entry points ask of the queues (async.h): queue work,
 * wait for a stream, an event or everything, record and wait on events. */
#include "async.h"

#include <stdio.h>
#include <string.h>

bool sim_api_per_thread(const char *api)
{
    size_t n = strlen(api);
    return n > 5 && (strcmp(api + n - 5, "_ptsz") == 0 || strcmp(api + n - 5, "_ptds") == 0);
}

static struct sim_item *item_new(void)
{
    struct sim_item *it = calloc(1, sizeof *it);
    if (!it) {
        fprintf(stderr, "simcuda: out of memory for queued work\n");
        abort();
    }
    return it;
}

static bool queue_idle(void *q) { return ((struct sim_queue *)q)->head == NULL; }
static bool sync_done(void *s) { return ((struct sim_sync *)s)->done; }

static void wait_sync_locked(struct sim_sync *s, const char *what)
{
    sim_drain_until_locked(sync_done, s, what);
    sim_host_join_locked(&s->vc);
}

static void wait_queue_locked(struct sim_queue *q, const char *what)
{
    if (q->tail) {
        struct sim_sync *s = sim_item_sync_locked(q->tail);
        wait_sync_locked(s, what);
        sim_sync_put(s);
    } else {
        sim_host_join_locked(&q->vc);
    }
}

/* Copies w (kernel parameters included) onto its stream's queue. Work the
 * stand-in cannot copy (a kernel without declared parameter sizes) runs
 * once everything before it has. host_waits: the call returns only once
 * the work is done (copies to or from pageable host memory). replay: a
 * graph's item. */
CUresult sim_enqueue(const struct sim_work *w, bool per_thread, bool host_waits, bool replay)
{
    struct sim_item *it = item_new();
    it->replay = replay;
    CUresult r = sim_work_clone(&it->w, w);
    pthread_mutex_lock(&sim_sched_lock);
    struct sim_queue *q = sim_queue_of_locked(w->stream, per_thread);
    if (r != CUDA_SUCCESS) {
        free(it);
        it = item_new();
        it->mark = true;
        host_waits = true;
    }
    sim_queue_push_locked(q, it);
    if (host_waits)
        wait_queue_locked(q, w->op);
    else
        sim_after_queue_locked();
    pthread_mutex_unlock(&sim_sched_lock);
    return r == CUDA_SUCCESS ? CUDA_SUCCESS : sim_work_run(w, false);
}

void sim_wait_stream(CUstream s, bool per_thread)
{
    pthread_mutex_lock(&sim_sched_lock);
    wait_queue_locked(sim_queue_of_locked(s, per_thread), "cuStreamSynchronize");
    pthread_mutex_unlock(&sim_sched_lock);
}

/* Not done yet: one item runs, so a host polling in a loop makes progress. */
bool sim_stream_idle(CUstream s, bool per_thread)
{
    pthread_mutex_lock(&sim_sched_lock);
    struct sim_queue *q = sim_queue_of_locked(s, per_thread);
    bool idle = queue_idle(q) || (sim_step_locked() && queue_idle(q));
    if (idle)
        sim_host_join_locked(&q->vc);
    pthread_mutex_unlock(&sim_sched_lock);
    return idle;
}

void sim_wait_all(void)
{
    pthread_mutex_lock(&sim_sched_lock);
    for (struct sim_queue *q = sim_all_queues; q; q = q->next_all)
        wait_queue_locked(q, "cuCtxSynchronize");
    pthread_mutex_unlock(&sim_sched_lock);
}

/* A destroyed stream's queue runs dry first; it then leaves the list. */
void sim_stream_retire(CUstream s)
{
    pthread_mutex_lock(&sim_sched_lock);
    struct sim_queue *q = s->queue;
    if (q) {
        wait_queue_locked(q, "cuStreamDestroy");
        for (struct sim_queue **p = &sim_all_queues; *p; p = &(*p)->next_all)
            if (*p == q) {
                *p = q->next_all;
                break;
            }
        free(q);
        s->queue = NULL;
    }
    pthread_mutex_unlock(&sim_sched_lock);
}

void sim_event_record(CUevent e, CUstream s, bool per_thread)
{
    struct sim_item *it = item_new();
    it->mark = true;
    it->event = e;
    pthread_mutex_lock(&sim_sched_lock);
    struct sim_queue *q = sim_queue_of_locked(s, per_thread);
    sim_sync_put(e->sync);
    e->sync = sim_item_sync_locked(it);
    sim_queue_push_locked(q, it);
    sim_after_queue_locked();
    pthread_mutex_unlock(&sim_sched_lock);
}

void sim_event_wait(CUstream s, bool per_thread, CUevent e)
{
    pthread_mutex_lock(&sim_sched_lock);
    if (e->sync) {
        struct sim_item *it = item_new();
        it->mark = true;
        e->sync->refs++;
        it->deps = malloc(sizeof *it->deps);
        if (!it->deps) {
            fprintf(stderr, "simcuda: out of memory for a dependency\n");
            abort();
        }
        it->deps[0] = e->sync;
        it->ndeps = 1;
        sim_queue_push_locked(sim_queue_of_locked(s, per_thread), it);
        sim_after_queue_locked();
    }
    pthread_mutex_unlock(&sim_sched_lock);
}

void sim_event_sync(CUevent e)
{
    pthread_mutex_lock(&sim_sched_lock);
    if (e->sync)
        wait_sync_locked(e->sync, "cuEventSynchronize");
    pthread_mutex_unlock(&sim_sched_lock);
}

bool sim_event_done(CUevent e)
{
    pthread_mutex_lock(&sim_sched_lock);
    bool done = !e->sync || e->sync->done || (sim_step_locked() && e->sync->done);
    if (done && e->sync)
        sim_host_join_locked(&e->sync->vc);
    pthread_mutex_unlock(&sim_sched_lock);
    return done;
}

void sim_memory_fresh(const void *base, size_t size)
{
    if (!sim_race_on())
        return;
    pthread_mutex_lock(&sim_sched_lock);
    sim_race_forget(base, size);
    pthread_mutex_unlock(&sim_sched_lock);
}
