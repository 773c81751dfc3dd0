/* A unit of device work of the stand-in's cuBLAS and cuBLASLt as
 * enqueue.c queues it (simcublasLt_enqueue), and the memory it touches
 * (job_spans.c). */
#ifndef SIMLT_JOB_H
#define SIMLT_JOB_H
#include "internal.h"
#include "simcuda_task.h"

#define MAX_SPANS 128

typedef struct simlt_job {
    char op[64];
    char *trace;
    bool is_gemm;
    sim_gemm g;
    sim_add a;
    const void *const *arrays[4];
    int64_t narrays;
    simlt_layout planar[4]; /* copies: the caller may destroy its layouts */
    bool is_planar[4], any_planar;
    simlt_layout tiled[4]; /* IMMA-ordered operands, copied likewise */
    bool is_tiled[4], any_tiled;
    unsigned char alpha[16], beta[16];
    void (*host_fn)(void *args); /* host work (simlt_host_work): its own copy of the arguments */
    void *host_args;
} simlt_job;

/* Appends the job's spans (a GEMM's or an add's) to s[*n..MAX_SPANS).
 * is_device tells scalars in device memory (read when the work runs, so
 * not known to be 0 now); NULL when the driver has none. */
SIM_HIDDEN_FN void simlt_job_spans(const simlt_job *j, simcuda_is_device_fn is_device, simcuda_span *s, size_t *n);

#endif
