/* The one door through which the stand-in's cuBLAS and cuBLASLt do device
 * work (simcublasLt_enqueue, simlt.h): the work and its trace line become a
 * task handed to the driver (simcudaEnqueue, simcuda_task.h), which runs it
 * on its stream in the scheduler's order, records it into a capture, and
 * tells the race detector what it touches. Scalars in host memory are
 * copied now, as the real library reads them at call time; scalars in
 * device memory are read when the work runs. What the work touches:
 * job_spans.c. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "job.h"
#include "planar.h"
#include "simcuda_task.h"
#include "simlt.h"
#include "tiled.h"
#include "trace.h"


static pthread_once_t once = PTHREAD_ONCE_INIT;
static simcuda_enqueue_fn enqueue;
static simcuda_is_device_fn is_device;
static simcuda_runs_now_fn runs_now;

static void bind(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib)
        return;
    enqueue = (simcuda_enqueue_fn)dlsym(lib, "simcudaEnqueue");
    is_device = (simcuda_is_device_fn)dlsym(lib, "simcudaIsDevice");
    runs_now = (simcuda_runs_now_fn)dlsym(lib, "simcudaRunsNow");
}

/* Runs the GEMM once per entry of the pointer arrays. */
static cublasStatus_t run_arrays(simlt_job *j)
{
    sim_gemm g = j->g;
    for (int64_t i = 0; i < j->narrays; i++) {
        g.a.base = j->arrays[0][i];
        g.b.base = j->arrays[1][i];
        g.c.base = j->arrays[2][i];
        g.d.base = j->arrays[3] ? j->arrays[3][i] : j->arrays[2][i];
        cublasStatus_t st = simcublasLt_gemm(&g);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t run_planar(simlt_job *j)
{
    const simlt_layout *ls[4];
    for (int i = 0; i < 4; i++)
        ls[i] = j->is_planar[i] ? &j->planar[i] : NULL;
    sim_gemm g = j->g;
    return simlt_planar_gemm(&g, ls);
}

/* The IMMA-ordered operands' layouts, NULL for the others. */
static void tiled_layouts(const simlt_job *j, const simlt_layout *ls[4])
{
    for (int i = 0; i < 4; i++)
        ls[i] = j->is_tiled[i] ? &j->tiled[i] : NULL;
}

static cublasStatus_t run_gemm(simlt_job *j)
{
    const simlt_layout *ls[4];
    if (j->narrays)
        return run_arrays(j);
    if (j->any_tiled) {
        sim_gemm g = j->g;
        tiled_layouts(j, ls);
        return simlt_tiled_gemm(&g, ls);
    }
    return j->any_planar ? run_planar(j) : simcublasLt_gemm(&j->g);
}

static cublasStatus_t run_add(simlt_job *j)
{
    const simlt_layout *ls[4];
    if (!j->any_tiled)
        return simcublasLt_add(&j->a);
    sim_add a = j->a;
    tiled_layouts(j, ls);
    return simlt_tiled_add(&a, ls);
}

static int run(void *arg)
{
    simlt_job *j = arg;
    if (j->host_fn) {
        j->host_fn(j->host_args);
        return 0;
    }
    sim_trace(j->op, "%s", j->trace);
    return j->is_gemm ? run_gemm(j) : run_add(j);
}

/* The layouts of IMMA-ordered operands, copied. */
static void take_tiled(simlt_job *j, const simlt_work *w)
{
    for (int i = 0; i < 4; i++)
        if (w->tiled[i]) {
            j->tiled[i] = *w->tiled[i];
            j->is_tiled[i] = j->any_tiled = true;
        }
}

/* The work's operands as the job runs them. */
static void take_work(simlt_job *j, const simlt_work *w)
{
    take_tiled(j, w);
    j->g = *w->gemm;
    memcpy(j->arrays, w->arrays, sizeof j->arrays);
    j->narrays = w->narrays;
    for (int i = 0; i < 4; i++)
        if (w->planar[i]) {
            j->planar[i] = *w->planar[i];
            j->is_planar[i] = j->any_planar = true;
        }
}

static void release(void *arg)
{
    simlt_job *j = arg;
    free(j->trace);
    free(j->host_args);
    free(j);
}

/* A host scalar is copied into the job; the job's copy is used from now on. */
static const void *own_scalar(const void *p, cudaDataType type, unsigned char *keep)
{
    size_t n = sim_elem_size(type);
    if (!p || (is_device && is_device(p)) || !n || n > 16)
        return p;
    memcpy(keep, p, n);
    return keep;
}


static cublasStatus_t submit(cudaStream_t stream, simlt_job *j, const simlt_host_work *host)
{
    simcuda_span spans[MAX_SPANS];
    size_t n = 0;
    if (host)
        for (; n < host->nspans && n < MAX_SPANS; n++)
            spans[n] = host->spans[n];
    else
        simlt_job_spans(j, is_device, spans, &n);
    simcuda_task t = {j->op, run, release, j, spans, n};
    int status = 0;
    int r = enqueue(stream, 0, &t, &status);
    if (r != 0)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return (cublasStatus_t)status;
}

/* The synchronous stand-in, outside a capture: the work runs now, on the
 * caller's arguments, as it always did (no copies). */
static cublasStatus_t run_now(const simlt_work *w)
{
    if (w->host) {
        w->host->fn((void *)(uintptr_t)w->host->args);
        return CUBLAS_STATUS_SUCCESS;
    }
    sim_trace(w->op, "%s", w->trace ? w->trace : "");
    simlt_job j = {0};
    if (w->add) {
        take_tiled(&j, w);
        j.a = *w->add;
        return run_add(&j);
    }
    take_work(&j, w);
    return run_gemm(&j);
}

cublasStatus_t simcublasLt_enqueue(cudaStream_t stream, const simlt_work *w)
{
    pthread_once(&once, bind);
    if (!enqueue || (runs_now && runs_now(stream)))
        return run_now(w);
    simlt_job *j = calloc(1, sizeof *j);
    if (!j || !(j->trace = strdup(w->trace ? w->trace : ""))) {
        free(j);
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    snprintf(j->op, sizeof j->op, "%s", w->op);
    j->is_gemm = w->gemm != NULL;
    if (w->host) {
        if (!(j->host_args = malloc(w->host->size ? w->host->size : 1))) {
            release(j);
            return CUBLAS_STATUS_ALLOC_FAILED;
        }
        memcpy(j->host_args, w->host->args, w->host->size);
        j->host_fn = w->host->fn;
    } else if (w->gemm) {
        take_work(j, w);
        if (!j->g.alpha_vec)
            j->g.alpha = own_scalar(j->g.alpha, j->g.scale, j->alpha);
        if (!j->g.beta_vec)
            j->g.beta = own_scalar(j->g.beta, j->g.scale, j->beta);
    } else {
        take_tiled(j, w);
        j->a = *w->add;
        j->a.alpha = own_scalar(j->a.alpha, j->a.scale, j->alpha);
        j->a.beta = own_scalar(j->a.beta, j->a.scale, j->beta);
    }
    return submit(stream, j, w->host);
}
