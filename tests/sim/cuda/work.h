/* Device work as data. Every operation that runs on a stream (copies, sets,
 * kernels, host functions, cuBLAS/cuBLASLt tasks, stream-ordered frees) is
 * described by a sim_work and handed to sim_submit: on a capturing stream
 * it is recorded into the capture (and replayed by cuGraphLaunch); with
 * queues on (async.h) it is queued on its stream; otherwise it runs at
 * once. Running checks the addresses, does the work (unless SIMCUDA_NOOP)
 * and writes the trace line. */
#ifndef SIM_CUDA_WORK_H
#define SIM_CUDA_WORK_H
#include "internal.h"
#include "simcuda_task.h"

enum sim_work_kind { SIM_WORK_COPY, SIM_WORK_COPY2D, SIM_WORK_SET, SIM_WORK_SET2D, SIM_WORK_KERNEL, SIM_WORK_HOST,
                     SIM_WORK_TASK, SIM_WORK_FREE };

struct sim_task; /* task.c: a refcounted simcuda_task */

struct sim_work {
    enum sim_work_kind kind;
    const char *op; /* trace name: the API the program called */
    CUstream stream;
    void *owned; /* queued copy: a snapshot of its pageable source */
    union {
        /* dev_*: that side must lie in a live allocation */
        struct { char *dst; const char *src; size_t n; bool dev_dst, dev_src; } copy;
        struct { char *dst; const char *src; size_t dpitch, spitch, width, height; bool dev_dst, dev_src; } copy2d;
        /* width counts elements of `elem` bytes; SET has height 1 */
        struct { char *dst; size_t pitch, width, height; unsigned value, elem; } set;
        /* blob: owned copy of the parameter bytes (captured work only) */
        struct { struct CUfunc_st *f; simcuda_launch l; void **params; void *blob; } kernel;
        struct { CUhostFn fn; void *data; } host;
        struct { struct sim_task *t; } task;
        struct { void *ptr; } free;
    } u;
};

/* Validates, then records, queues or runs. Consumes nothing of `w` it
 * does not copy. `api`: the driver entry point (its _ptsz/_ptds suffix
 * selects the per-thread default stream for a NULL stream). host_waits:
 * the call returns once the work is done. */
SIM_HIDDEN CUresult sim_submit(struct sim_work *w, const char *api, bool host_waits);
/* Checks and runs one item; `replay` marks graph replays in the trace. */
SIM_HIDDEN CUresult sim_work_run(const struct sim_work *w, bool replay);
/* Deep copy (kernel parameters included) and its release. */
SIM_HIDDEN CUresult sim_work_clone(struct sim_work *dst, const struct sim_work *src);
SIM_HIDDEN void sim_work_release(struct sim_work *w);

/* graph.c: the capture list of a stream. */
SIM_HIDDEN CUresult sim_capture_append(CUstream s, const struct sim_work *w);
SIM_HIDDEN bool sim_capturing(CUstream s);
/* capture.c: whether a capture forbids a call that would synchronize with
 * it (and invalidates that capture); a wait on an event recorded in a live
 * capture (true: s joined it, or already records into it). */
SIM_HIDDEN bool sim_capture_forbids(void);
SIM_HIDDEN bool sim_capture_join(CUstream s, CUevent e);

/* task.c */
SIM_HIDDEN struct sim_task *sim_task_retain(struct sim_task *t);
SIM_HIDDEN void sim_task_put(struct sim_task *t);
SIM_HIDDEN int sim_task_run(const struct sim_task *t);
SIM_HIDDEN const simcuda_span *sim_task_spans(const struct sim_task *t, size_t *n);
SIM_HIDDEN const char *sim_task_op(const struct sim_task *t);

#endif
