/* simcudaEnqueue: the one door through which the stand-in's cuBLAS and
 * cuBLASLt hand their device work to the driver (simcuda_task.h). A task is
 * refcounted: a queue, a capture and every graph made from it hold it. */
#include "work.h"
#include "async.h"

#include <stdatomic.h>
#include <string.h>

struct sim_task {
    atomic_int refs;
    simcuda_task t;
    simcuda_span *spans;
};

struct sim_task *sim_task_retain(struct sim_task *t)
{
    atomic_fetch_add(&t->refs, 1);
    return t;
}

void sim_task_put(struct sim_task *t)
{
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1)
        return;
    if (t->t.release)
        t->t.release(t->t.arg);
    free(t->spans);
    free(t);
}

int sim_task_run(const struct sim_task *t) { return t->t.run(t->t.arg); }
const char *sim_task_op(const struct sim_task *t) { return t->t.op; }

const simcuda_span *sim_task_spans(const struct sim_task *t, size_t *n)
{
    *n = t->t.nspans;
    return t->spans;
}

static struct sim_task *task_new(const simcuda_task *src)
{
    struct sim_task *t = calloc(1, sizeof *t);
    simcuda_span *spans = src->nspans ? malloc(src->nspans * sizeof *spans) : NULL;
    if (!t || (src->nspans && !spans)) {
        free(t);
        free(spans);
        return NULL;
    }
    if (spans)
        memcpy(spans, src->spans, src->nspans * sizeof *spans);
    atomic_init(&t->refs, 1);
    t->t = *src;
    t->spans = spans;
    return t;
}

SIM_API int simcudaEnqueue(void *stream, int per_thread, const simcuda_task *src, int *status);
int simcudaEnqueue(void *stream, int per_thread, const simcuda_task *src, int *status)
{
    *status = 0;
    struct sim_task *t = task_new(src);
    if (!t) {
        if (src->release)
            src->release(src->arg);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    struct sim_work w = {.kind = SIM_WORK_TASK, .op = src->op, .stream = stream, .u.task.t = t};
    bool now = !sim_capturing(stream) && !sim_queued();
    CUresult r;
    if (now) {
        r = sim_stream_ok(stream) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
        if (r == CUDA_SUCCESS)
            *status = sim_task_run(t);
    } else {
        r = sim_submit(&w, per_thread ? "task_ptsz" : "task", false);
    }
    sim_task_put(t);
    return r;
}

SIM_API int simcudaRunsNow(void *stream);
int simcudaRunsNow(void *stream)
{
    return !sim_queued() && !sim_capturing(stream);
}

SIM_API int simcudaIsDevice(const void *p);
int simcudaIsDevice(const void *p)
{
    enum sim_mem_kind kind;
    return sim_lookup(p, NULL, NULL, &kind) && kind != SIM_MEM_HOST;
}
