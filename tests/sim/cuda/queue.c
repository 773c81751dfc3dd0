/* Stream queues and the dependencies CUDA defines between them (async.h):
 * one queue per created stream, one for the legacy default stream, one per
 * thread for its per-thread default stream. */
#include "async.h"

#include <stdio.h>
#include <string.h>

pthread_mutex_t sim_sched_lock = PTHREAD_MUTEX_INITIALIZER;
struct sim_queue *sim_all_queues;

static struct sim_queue *legacy_queue;
static __thread struct sim_queue *per_thread_queue;

struct host_clock { int agent; sim_vc vc; struct host_clock *next; };
static __thread struct host_clock *host;
static struct host_clock *all_hosts;

static struct sim_queue *queue_new(CUstream handle, bool legacy, bool blocking)
{
    struct sim_queue *q = calloc(1, sizeof *q);
    if (!q) {
        fprintf(stderr, "simcuda: out of memory for a stream queue\n");
        abort();
    }
    q->handle = handle;
    q->legacy = legacy;
    q->blocking = blocking;
    q->agent = sim_race_on() ? sim_race_agent() : -1;
    q->next_all = sim_all_queues;
    sim_all_queues = q;
    return q;
}

struct sim_queue *sim_queue_of_locked(CUstream s, bool per_thread)
{
    if (s == CU_STREAM_PER_THREAD || (!s && per_thread)) {
        if (!per_thread_queue)
            per_thread_queue = queue_new(CU_STREAM_PER_THREAD, false, true);
        return per_thread_queue;
    }
    if (!s || s == CU_STREAM_LEGACY) {
        if (!legacy_queue)
            legacy_queue = queue_new(NULL, true, true);
        return legacy_queue;
    }
    if (!s->queue)
        s->queue = queue_new(s, false, !(s->flags & CU_STREAM_NON_BLOCKING));
    return s->queue;
}

struct sim_sync *sim_item_sync_locked(struct sim_item *it)
{
    if (!it->sync) {
        it->sync = calloc(1, sizeof *it->sync);
        if (!it->sync) {
            fprintf(stderr, "simcuda: out of memory for a dependency\n");
            abort();
        }
        it->sync->refs = 1;
    }
    it->sync->refs++;
    return it->sync;
}

void sim_sync_put(struct sim_sync *s)
{
    if (s && --s->refs == 0)
        free(s);
}

static void add_dep(struct sim_item *it, struct sim_sync *s)
{
    struct sim_sync **d = realloc(it->deps, (it->ndeps + 1) * sizeof *d);
    if (!d) {
        fprintf(stderr, "simcuda: out of memory for a dependency\n");
        abort();
    }
    it->deps = d;
    d[it->ndeps++] = s;
}

/* Ordered after everything q holds now: its last item, or (all done) its
 * clock, which is then that last item's. */
static void after_queue(struct sim_item *it, struct sim_queue *q)
{
    if (q->tail)
        add_dep(it, sim_item_sync_locked(q->tail));
    else if (q->agent >= 0)
        sim_vc_join(&it->host, &q->vc);
}

/* The legacy default stream waits for every blocking stream, and every
 * blocking stream for it; non-blocking streams for nothing implicit. */
static void implicit_deps(struct sim_item *it, struct sim_queue *q)
{
    if (q->legacy) {
        for (struct sim_queue *o = sim_all_queues; o; o = o->next_all)
            if (o != q && o->blocking)
                after_queue(it, o);
    } else if (q->blocking && legacy_queue) {
        after_queue(it, legacy_queue);
    }
}

void sim_queue_push_locked(struct sim_queue *q, struct sim_item *it)
{
    if (sim_race_on())
        sim_vc_join(&it->host, sim_host_tick_locked());
    implicit_deps(it, q);
    it->next = NULL;
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
}

void sim_queue_pop_locked(struct sim_queue *q)
{
    struct sim_item *it = q->head;
    q->head = it->next;
    if (!q->head)
        q->tail = NULL;
    for (size_t i = 0; i < it->ndeps; i++)
        sim_sync_put(it->deps[i]);
    free(it->deps);
    sim_sync_put(it->sync);
    if (!it->mark)
        sim_work_release(&it->w);
    free(it);
}

static struct host_clock *host_clock(void)
{
    if (!host) {
        host = calloc(1, sizeof *host);
        if (!host) {
            fprintf(stderr, "simcuda: out of memory for a thread clock\n");
            abort();
        }
        host->agent = sim_race_agent();
        /* Thread creation is not seen: a new thread is taken to start after
         * everything the threads known so far did (it may hide a race
         * between threads, never invent one). */
        for (struct host_clock *h = all_hosts; h; h = h->next)
            sim_vc_join(&host->vc, &h->vc);
        host->next = all_hosts;
        all_hosts = host;
    }
    return host;
}

const sim_vc *sim_host_tick_locked(void)
{
    struct host_clock *h = host_clock();
    if (h->agent >= 0)
        h->vc.c[h->agent]++;
    return &h->vc;
}

void sim_host_join_locked(const sim_vc *vc)
{
    if (sim_race_on())
        sim_vc_join(&host_clock()->vc, vc);
}
