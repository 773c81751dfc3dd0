/* Device work as data. Every operation that runs on a stream (copies, sets,
 * kernels, host functions) is described by a sim_work and handed to
 * sim_submit: on a capturing stream it is recorded into the capture (and
 * replayed by cuGraphLaunch), otherwise it runs at once. Running checks the
 * addresses, does the work (unless SIMCUDA_NOOP) and writes the trace line. */
#ifndef SIM_CUDA_WORK_H
#define SIM_CUDA_WORK_H
#include "internal.h"

enum sim_work_kind { SIM_WORK_COPY, SIM_WORK_COPY2D, SIM_WORK_SET, SIM_WORK_SET2D, SIM_WORK_KERNEL, SIM_WORK_HOST };

struct sim_work {
    enum sim_work_kind kind;
    const char *op; /* trace name: the API the program called */
    CUstream stream;
    union {
        /* dev_*: that side must lie in a live allocation */
        struct { char *dst; const char *src; size_t n; bool dev_dst, dev_src; } copy;
        struct { char *dst; const char *src; size_t dpitch, spitch, width, height; bool dev_dst, dev_src; } copy2d;
        /* width counts elements of `elem` bytes; SET has height 1 */
        struct { char *dst; size_t pitch, width, height; unsigned value, elem; } set;
        /* blob: owned copy of the parameter bytes (captured work only) */
        struct { struct CUfunc_st *f; simcuda_launch l; void **params; void *blob; } kernel;
        struct { CUhostFn fn; void *data; } host;
    } u;
};

/* Validates, then records or runs. Consumes nothing of `w` it does not copy. */
SIM_HIDDEN CUresult sim_submit(struct sim_work *w);
/* Checks and runs one item; `replay` marks graph replays in the trace. */
SIM_HIDDEN CUresult sim_work_run(const struct sim_work *w, bool replay);
/* Deep copy (kernel parameters included) and its release. */
SIM_HIDDEN CUresult sim_work_clone(struct sim_work *dst, const struct sim_work *src);
SIM_HIDDEN void sim_work_release(struct sim_work *w);

/* graph.c: the capture list of a stream. */
SIM_HIDDEN CUresult sim_capture_append(CUstream s, const struct sim_work *w);
SIM_HIDDEN bool sim_capturing(CUstream s);

#endif
