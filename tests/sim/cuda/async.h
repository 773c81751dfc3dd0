/* The asynchronous stand-in (SIMCUDA_ASYNC=1) and the queues the race
 * detector (SIMCUDA_RACE) needs. Work submitted to a stream is queued on
 * that stream's queue, with the dependencies CUDA defines: stream order,
 * the legacy default stream (which waits for, and is waited for by, every
 * blocking stream), events waited on. A seeded scheduler
 * (SIMCUDA_SCHED_SEED) runs ready work in a random order at random points,
 * and everything a blocking call needs before it returns. Host functions
 * run on a thread of their own, as the driver's. Without SIMCUDA_ASYNC but
 * with SIMCUDA_RACE, each item runs as soon as it is queued (call order).
 *
 * One lock guards every queue; work runs with it held, except host
 * functions. */
#ifndef SIM_CUDA_ASYNC_H
#define SIM_CUDA_ASYNC_H
#include "race.h"

/* Completion of one queued item, shared (refcounted) with what waits on it. */
struct sim_sync {
    int refs;
    bool done;
    sim_vc vc; /* the item's clock, once done (race detector) */
};

struct sim_item {
    struct sim_item *next;
    struct sim_work w; /* owned copy; unused by a mark */
    bool mark;         /* no work: a point waited on or recorded */
    bool replay;       /* a graph's item (trace) */
    struct sim_sync **deps;
    size_t ndeps;
    struct sim_sync *sync; /* made when something waits on this item */
    CUevent event;         /* a record: its time is taken when it runs */
    sim_vc host;           /* the issuing thread's clock (race detector) */
};

struct sim_queue {
    struct sim_queue *next_all;
    CUstream handle;
    bool legacy, blocking;
    int agent;
    struct sim_item *head, *tail;
    bool busy; /* its head, a host function, is running */
    sim_vc vc; /* clock of its last completed item */
};

/* Whether work goes through the queues (ASYNC or RACE), and ASYNC alone. */
SIM_HIDDEN bool sim_queued(void);
SIM_HIDDEN bool sim_async(void);

/* queue.c (lock held where named _locked) */
SIM_HIDDEN extern pthread_mutex_t sim_sched_lock;
SIM_HIDDEN extern struct sim_queue *sim_all_queues;
SIM_HIDDEN struct sim_queue *sim_queue_of_locked(CUstream s, bool per_thread);
SIM_HIDDEN void sim_queue_push_locked(struct sim_queue *q, struct sim_item *it);
SIM_HIDDEN void sim_queue_pop_locked(struct sim_queue *q);
SIM_HIDDEN void sim_sync_put(struct sim_sync *s);
SIM_HIDDEN struct sim_sync *sim_item_sync_locked(struct sim_item *it);
/* The calling thread's clock, ticked (the host issues something). */
SIM_HIDDEN const sim_vc *sim_host_tick_locked(void);
SIM_HIDDEN void sim_host_join_locked(const sim_vc *vc);

/* sched.c */
/* Runs the item at q's head; a host function is handed to its thread. */
SIM_HIDDEN bool sim_step_locked(void);
/* After queuing: runs some ready work (ASYNC: as the seed says; otherwise
 * everything, so work keeps call order). */
SIM_HIDDEN void sim_after_queue_locked(void);
/* Blocks the host until done(arg) holds, running work meanwhile. */
SIM_HIDDEN void sim_drain_until_locked(bool (*done)(void *), void *arg, const char *what);

/* api: what the driver entry points call. */
SIM_HIDDEN CUresult sim_enqueue(const struct sim_work *w, bool per_thread, bool host_waits, bool replay);
SIM_HIDDEN void sim_wait_stream(CUstream s, bool per_thread);
SIM_HIDDEN bool sim_stream_idle(CUstream s, bool per_thread);
SIM_HIDDEN void sim_wait_all(void);
SIM_HIDDEN void sim_stream_retire(CUstream s);
SIM_HIDDEN void sim_event_record(CUevent e, CUstream s, bool per_thread);
SIM_HIDDEN void sim_event_wait(CUstream s, bool per_thread, CUevent e);
SIM_HIDDEN void sim_event_sync(CUevent e);
SIM_HIDDEN bool sim_event_done(CUevent e);
/* Memory allocated or freed: the race detector forgets its history. */
SIM_HIDDEN void sim_memory_fresh(const void *base, size_t size);
/* Whether an API name is a per-thread-default-stream variant (_ptsz, _ptds). */
SIM_HIDDEN bool sim_api_per_thread(const char *api);

#endif
