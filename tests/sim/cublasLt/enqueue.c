/* The one door through which the stand-in's cuBLAS and cuBLASLt do device
 * work (simcublasLt_enqueue, simlt.h): the work and its trace line become a
 * task handed to the driver (simcudaEnqueue, simcuda_task.h), which runs it
 * on its stream in the scheduler's order, records it into a capture, and
 * tells the race detector what it touches. Scalars in host memory are
 * copied now, as the real library reads them at call time; scalars in
 * device memory are read when the work runs. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elem.h"
#include "planar.h"
#include "scale.h"
#include "tiled.h"
#include "simcuda_task.h"
#include "simlt.h"
#include "trace.h"

#define MAX_SPANS 128

typedef struct job {
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
} job;

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
static cublasStatus_t run_arrays(job *j)
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

static cublasStatus_t run_planar(job *j)
{
    const simlt_layout *ls[4];
    for (int i = 0; i < 4; i++)
        ls[i] = j->is_planar[i] ? &j->planar[i] : NULL;
    sim_gemm g = j->g;
    return simlt_planar_gemm(&g, ls);
}

/* The IMMA-ordered operands' layouts, NULL for the others. */
static void tiled_layouts(const job *j, const simlt_layout *ls[4])
{
    for (int i = 0; i < 4; i++)
        ls[i] = j->is_tiled[i] ? &j->tiled[i] : NULL;
}

static cublasStatus_t run_gemm(job *j)
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

static cublasStatus_t run_add(job *j)
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
    job *j = arg;
    if (j->host_fn) {
        j->host_fn(j->host_args);
        return 0;
    }
    sim_trace(j->op, "%s", j->trace);
    return j->is_gemm ? run_gemm(j) : run_add(j);
}

/* The layouts of IMMA-ordered operands, copied. */
static void take_tiled(job *j, const simlt_work *w)
{
    for (int i = 0; i < 4; i++)
        if (w->tiled[i]) {
            j->tiled[i] = *w->tiled[i];
            j->is_tiled[i] = j->any_tiled = true;
        }
}

/* The work's operands as the job runs them. */
static void take_work(job *j, const simlt_work *w)
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
    job *j = arg;
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

static bool is_zero(const void *p, cudaDataType type)
{
    static const unsigned char zero[16];
    size_t n = sim_elem_size(type);
    return p && n && n <= 16 && !(is_device && is_device(p)) && memcmp(p, zero, n) == 0;
}

/* A rows x cols view, per batch, as spans of bytes (one bounding span
 * when the batch is large). */
static void spans_of(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                     size_t *n);

/* FP4 packs two elements a byte along the contiguous dimension: the same
 * bytes as an 8-bit view half as long that way. */
static void nibble_spans(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                         size_t *n)
{
    sim_mat b = {.base = m->base, .type = CUDA_R_8I, .rs = m->rs / 2, .cs = m->cs / 2, .bs = m->bs / 2};
    if (m->rs == 1)
        b.rs = 1, rows = (rows + 1) / 2;
    else
        b.cs = 1, cols = (cols + 1) / 2;
    spans_of(&b, rows, cols, batch, write, out, n);
}

/* A block scale factor array, read or written whole. */
static void bscale_spans(const sim_bscale *sc, int64_t outer, int write, simcuda_span *out, size_t *n)
{
    if (sc->p)
        spans_of(&(sim_mat){.base = sc->p, .type = CUDA_R_8I, .rs = 1}, sim_bscale_bytes(outer, sc->blocks), 1, 1,
                 write, out, n);
}

static void spans_of(const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write, simcuda_span *out,
                     size_t *n)
{
    if (m->type == CUDA_R_4F_E2M1 && m->base) {
        nibble_spans(m, rows, cols, batch, write, out, n);
        return;
    }
    size_t es = sim_elem_size(m->type);
    if (!m->base || !es || rows <= 0 || cols <= 0 || batch <= 0 || *n + 2 > MAX_SPANS)
        return;
    int64_t rs = m->rs, cs = m->cs;
    const char *base = m->base;
    if (rs < 0) { base += (rows - 1) * rs * (int64_t)es; rs = -rs; }
    if (cs < 0) { base += (cols - 1) * cs * (int64_t)es; cs = -cs; }
    bool col_major = rs == 1 || (cs != 1 && rs <= cs) || cols == 1;
    size_t width = col_major ? (rows - 1) * rs * es + es : (cols - 1) * cs * es + es;
    size_t pitch = (size_t)(col_major ? cs : rs) * es, count = (size_t)(col_major ? cols : rows);
    if (col_major && rs != 1)
        width = (rows - 1) * rs * es + es; /* a strided vector: its bounding range */
    int64_t per = batch <= 16 && m->bs ? batch : 1;
    for (int64_t b = 0; b < per; b++)
        out[(*n)++] = (simcuda_span){base + b * m->bs * (int64_t)es, width, pitch ? pitch : width, count, write};
    if (per == 1 && batch > 1 && m->bs) /* the rest, as one bound */
        out[(*n)++] = (simcuda_span){base, (size_t)((batch - 1) * m->bs) * es + (count - 1) * pitch + width, 0, 1,
                                     write};
}

/* Operand i of the job (rows x cols of its view): its view's spans, or the
 * whole range an IMMA-ordered layout reaches. */
static void operand_spans(const job *j, int i, const sim_mat *m, int64_t rows, int64_t cols, int64_t batch, int write,
                          simcuda_span *s, size_t *n)
{
    if (!j->is_tiled[i]) {
        spans_of(m, rows, cols, batch, write, s, n);
        return;
    }
    int64_t bytes = simlt_tiled_extent(&j->tiled[i]) * (int64_t)sim_elem_size(m->type);
    if (m->base && bytes > 0 && *n < MAX_SPANS)
        s[(*n)++] = (simcuda_span){m->base, (size_t)bytes, (size_t)bytes, 1, write};
}

static void gemm_spans(const job *j, simcuda_span *s, size_t *n)
{
    const sim_gemm *g = &j->g;
    if (j->narrays || j->any_planar)
        return; /* arrays and planes are read where they point when the work runs */
    operand_spans(j, 0, &g->a, g->m, g->k, g->batch, 0, s, n);
    operand_spans(j, 1, &g->b, g->k, g->n, g->batch, 0, s, n);
    if (!g->beta_zero && !is_zero(g->beta, g->scale))
        operand_spans(j, 2, &g->c, g->m, g->n, g->batch, 0, s, n);
    operand_spans(j, 3, &g->d, g->m, g->n, g->batch, 1, s, n);
    if (g->bias)
        spans_of(&(sim_mat){.base = g->bias, .type = g->bias_type, .rs = 1, .bs = g->bias_bs}, g->m, 1, g->batch, 0, s, n);
    if (g->aux)
        spans_of(&(sim_mat){.base = g->aux, .type = g->d.type, .rs = 1, .cs = g->aux_ld, .bs = g->aux_bs}, g->m, g->n,
                 g->batch, 1, s, n);
    bscale_spans(&g->a_block, g->m, 0, s, n);
    bscale_spans(&g->b_block, g->n, 0, s, n);
    bscale_spans(&g->d_out, g->n, 1, s, n);
}

static void add_spans(const job *j, simcuda_span *s, size_t *n)
{
    const sim_add *a = &j->a;
    if (!is_zero(a->alpha, a->scale))
        operand_spans(j, 0, &a->a, a->m, a->n, a->batch, 0, s, n);
    if (!is_zero(a->beta, a->scale))
        operand_spans(j, 1, &a->b, a->m, a->n, a->batch, 0, s, n);
    operand_spans(j, 2, &a->c, a->m, a->n, a->batch, 1, s, n);
}

static cublasStatus_t submit(cudaStream_t stream, job *j, const simlt_host_work *host)
{
    simcuda_span spans[MAX_SPANS];
    size_t n = 0;
    if (host)
        for (; n < host->nspans && n < MAX_SPANS; n++)
            spans[n] = host->spans[n];
    else if (j->is_gemm)
        gemm_spans(j, spans, &n);
    else
        add_spans(j, spans, &n);
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
    job j = {0};
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
    job *j = calloc(1, sizeof *j);
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
