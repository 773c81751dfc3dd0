/* Stream capture and graphs. Work submitted to a capturing stream is
 * recorded (parameters copied by value, as a real capture does); the
 * captured list becomes a CUgraph, an instantiated graph owns its own copy,
 * and cuGraphLaunch runs the items in order on the launch stream, tracing
 * each with "graph":true. Graphs hold only what capture records: no
 * hand-built nodes, no allocation nodes. With queues (async.h) a launch
 * queues the items, in capture order, on the launch stream. */
#include "work.h"
#include "async.h"

#include <stdlib.h>

struct CUgraph_st { uint32_t magic; struct sim_work *work; size_t n; };
struct CUgraphExec_st { uint32_t magic; struct sim_work *work; size_t n; };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

bool sim_capturing(CUstream s)
{
    return s && s != CU_STREAM_LEGACY && s != CU_STREAM_PER_THREAD && s->capturing;
}

CUresult sim_capture_append(CUstream s, const struct sim_work *w)
{
    s = s->origin ? s->origin : s; /* a joined stream records into its origin's list */
    pthread_mutex_lock(&lock);
    CUresult r = CUDA_SUCCESS;
    if (s->ncaptured == s->capcaptured) {
        size_t cap = s->capcaptured ? s->capcaptured * 2 : 16;
        struct sim_work *nw = realloc(s->captured, cap * sizeof *nw);
        if (nw) {
            s->captured = nw;
            s->capcaptured = cap;
        } else {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    if (r == CUDA_SUCCESS && (r = sim_work_clone(&s->captured[s->ncaptured], w)) == CUDA_SUCCESS)
        s->ncaptured++;
    pthread_mutex_unlock(&lock);
    return r;
}

static void release_all(struct sim_work *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sim_work_release(&w[i]);
    free(w);
}

void sim_capture_discard(CUstream s)
{
    pthread_mutex_lock(&lock);
    release_all(s->captured, s->ncaptured);
    s->captured = NULL;
    s->ncaptured = s->capcaptured = 0;
    pthread_mutex_unlock(&lock);
}

CUresult sim_graph_from_capture(CUstream s, CUgraph *out)
{
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (!g) {
        sim_capture_discard(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pthread_mutex_lock(&lock);
    *g = (struct CUgraph_st){SIM_MAGIC_GRAPH, s->captured, s->ncaptured};
    s->captured = NULL;
    s->ncaptured = s->capcaptured = 0;
    pthread_mutex_unlock(&lock);
    *out = g;
    return CUDA_SUCCESS;
}

CUresult cuGraphCreate(CUgraph *out, unsigned int flags)
{
    if (!out || flags)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraph_st *g = calloc(1, sizeof *g);
    if (!g)
        return CUDA_ERROR_OUT_OF_MEMORY;
    g->magic = SIM_MAGIC_GRAPH;
    *out = g;
    return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph g)
{
    if (!g || g->magic != SIM_MAGIC_GRAPH)
        return CUDA_ERROR_INVALID_VALUE;
    release_all(g->work, g->n);
    g->magic = 0;
    free(g);
    return CUDA_SUCCESS;
}

static CUresult copy_all(struct sim_work **out, const struct sim_work *src, size_t n)
{
    struct sim_work *w = calloc(n ? n : 1, sizeof *w);
    if (!w)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        CUresult r = sim_work_clone(&w[i], &src[i]);
        if (r != CUDA_SUCCESS) {
            release_all(w, i);
            return r;
        }
    }
    *out = w;
    return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph g, unsigned long long flags)
{
    (void)flags; /* auto-free, upload, device launch: nothing to do here */
    if (!out || !g || g->magic != SIM_MAGIC_GRAPH)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUgraphExec_st *e = calloc(1, sizeof *e);
    if (!e)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = copy_all(&e->work, g->work, g->n);
    if (r != CUDA_SUCCESS) {
        free(e);
        return r;
    }
    e->magic = SIM_MAGIC_EXEC;
    e->n = g->n;
    *out = e;
    return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec e)
{
    if (!e || e->magic != SIM_MAGIC_EXEC)
        return CUDA_ERROR_INVALID_VALUE;
    release_all(e->work, e->n);
    e->magic = 0;
    free(e);
    return CUDA_SUCCESS;
}

/* One line for the launch itself, then one a replayed item. Stops at the
 * first item whose memory is gone, as a faulting GPU would. */
static CUresult launch(const char *api, CUgraphExec e, CUstream s)
{
    const char *op = sim_op_name(api);
    if (!e || e->magic != SIM_MAGIC_EXEC || !sim_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    sim_trace(op, "\"graph\":\"0x%lx\",\"items\":%zu,\"stream\":\"0x%lx\"", (unsigned long)(uintptr_t)e, e->n,
              (unsigned long)(uintptr_t)s);
    for (size_t i = 0; i < e->n; i++) {
        struct sim_work w = e->work[i];
        w.stream = s;
        CUresult r = sim_queued() ? sim_enqueue(&w, sim_api_per_thread(api), false, true) : sim_work_run(&w, true);
        if (r != CUDA_SUCCESS)
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec e, CUstream s) { return launch("cuGraphLaunch", e, s); }
CUresult cuGraphLaunch_ptsz(CUgraphExec e, CUstream s) { return launch("cuGraphLaunch_ptsz", e, s); }

/* A graph's nodes are its captured items, in order; their handles are
 * opaque tokens that only count (no node API reads them here). PyTorch asks
 * for the count after a capture, to warn about an empty graph. */
CUresult cuGraphGetNodes(CUgraph g, CUgraphNode *nodes, size_t *count)
{
    if (!g || g->magic != SIM_MAGIC_GRAPH || !count)
        return CUDA_ERROR_INVALID_VALUE;
    if (nodes)
        for (size_t i = 0; i < *count && i < g->n; i++)
            nodes[i] = (CUgraphNode)(void *)&g->work[i];
    if (!nodes || *count > g->n)
        *count = g->n;
    return CUDA_SUCCESS;
}

/* Nothing to upload: an instantiated graph is ready to launch. */
static CUresult upload(CUgraphExec e, CUstream s)
{
    if (!e || e->magic != SIM_MAGIC_EXEC || !sim_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    return CUDA_SUCCESS;
}

CUresult cuGraphUpload(CUgraphExec e, CUstream s) { return upload(e, s); }
CUresult cuGraphUpload_ptsz(CUgraphExec e, CUstream s) { return upload(e, s); }
