/* Stream capture: between Begin and End, work on the stream is recorded
 * (graph.c) instead of run, and End hands it back as a graph. Only user
 * streams can be captured, as on a GPU. A stream that waits on an event
 * recorded inside a capture joins it: its work is recorded into the same
 * graph (in submission order) until the capture ends.
 *
 * The capture mode is modelled for the calls that would synchronize with a
 * capture (cuCtxSynchronize, synchronous copies, cuMemAlloc): during a
 * global capture, or a thread-local one on the calling thread, they fail
 * with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidate the capture,
 * whose End then fails with CUDA_ERROR_STREAM_CAPTURE_INVALIDATED. Each
 * thread has its own mode for those checks (cuThreadExchangeStreamCaptureMode,
 * default global): relaxed is never refused, thread-local is refused only by
 * its own thread's captures (PyTorch's allocator calls cudaMalloc in relaxed
 * mode while capturing).
 *
 * Capture queries answer the status and a capture id unique in the process;
 * the graph being built and its dependency nodes do not exist before End
 * here, so they are answered as none. */
#include "work.h"

struct joined { CUstream s; struct joined *next; };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct joined *joined;
struct active { CUstream s; pthread_t thread; bool invalid; unsigned long long id; struct active *next; };
static struct active *active;
static unsigned long long last_id;
static __thread CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

static struct active *find_active(CUstream origin)
{
    for (struct active *a = active; a; a = a->next)
        if (a->s == origin)
            return a;
    return NULL;
}

/* Whether capture `a` forbids an unsafe call of this thread, by the
 * thread's mode (the rules of cuThreadExchangeStreamCaptureMode). */
static bool forbids(const struct active *a)
{
    bool own = pthread_equal(a->thread, pthread_self()) && a->s->mode != CU_STREAM_CAPTURE_MODE_RELAXED;
    switch (thread_mode) {
    case CU_STREAM_CAPTURE_MODE_GLOBAL: return own || a->s->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
    case CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: return own;
    default: return false;
    }
}

bool sim_capture_forbids(void)
{
    bool hit = false;
    pthread_mutex_lock(&lock);
    for (struct active *a = active; a; a = a->next)
        if (forbids(a)) {
            a->invalid = true;
            hit = true;
        }
    pthread_mutex_unlock(&lock);
    return hit;
}

static CUresult begin(CUstream s, CUstreamCaptureMode mode)
{
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (s->magic != SIM_MAGIC_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (s->capturing)
        return CUDA_ERROR_ILLEGAL_STATE;
    struct active *a = calloc(1, sizeof *a);
    if (!a)
        return CUDA_ERROR_OUT_OF_MEMORY;
    sim_capture_discard(s);
    s->capturing = true;
    s->origin = s;
    s->mode = mode;
    pthread_mutex_lock(&lock);
    *a = (struct active){s, pthread_self(), false, ++last_id, active};
    active = a;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

/* The capture of `origin` is over: its joined streams leave it. */
static bool finish(CUstream origin)
{
    pthread_mutex_lock(&lock);
    for (struct joined **p = &joined; *p;) {
        struct joined *j = *p;
        if (j->s->origin == origin) {
            j->s->capturing = false;
            j->s->origin = NULL;
            *p = j->next;
            free(j);
        } else {
            p = &j->next;
        }
    }
    bool invalid = false;
    for (struct active **p = &active; *p; p = &(*p)->next)
        if ((*p)->s == origin) {
            struct active *a = *p;
            invalid = a->invalid;
            *p = a->next;
            free(a);
            break;
        }
    pthread_mutex_unlock(&lock);
    origin->capturing = false;
    origin->origin = NULL;
    return !invalid;
}

static CUresult end(CUstream s, CUgraph *graph)
{
    if (!graph)
        return CUDA_ERROR_INVALID_VALUE;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || s->magic != SIM_MAGIC_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!s->capturing || s->origin != s)
        return CUDA_ERROR_ILLEGAL_STATE;
    if (!finish(s)) {
        sim_capture_discard(s);
        *graph = NULL;
        return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    }
    return sim_graph_from_capture(s, graph);
}

bool sim_capture_join(CUstream s, CUevent e)
{
    CUstream origin = e->capture;
    if (origin && (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD))
        return false; /* cudaStreamWaitEvent fails: see wait_event */
    pthread_mutex_lock(&lock);
    bool live = origin && find_active(origin) && origin->capturing;
    struct joined *j = live && !sim_capturing(s) ? calloc(1, sizeof *j) : NULL;
    if (j) {
        s->capturing = true;
        s->origin = origin;
        *j = (struct joined){s, joined};
        joined = j;
    }
    pthread_mutex_unlock(&lock);
    return live;
}

static CUresult is_capturing(CUstream s, CUstreamCaptureStatus *status)
{
    CUresult r = sim_stream_query(s, status);
    if (r == CUDA_SUCCESS)
        *status = sim_capturing(s) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return r;
}

/* Status and id of the capture `s` records into (its own or the one it
 * joined); the id of a stream not capturing is left alone. */
static CUresult capture_info(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                             const CUgraphNode **deps, const CUgraphEdgeData **edges, size_t *ndeps)
{
    CUresult r = is_capturing(s, status);
    if (r != CUDA_SUCCESS || *status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
        return r;
    pthread_mutex_lock(&lock);
    struct active *a = find_active(s->origin);
    if (id)
        *id = a ? a->id : 0;
    pthread_mutex_unlock(&lock);
    if (graph)
        *graph = NULL;
    if (deps)
        *deps = NULL;
    if (edges)
        *edges = NULL;
    if (ndeps)
        *ndeps = 0;
    return CUDA_SUCCESS;
}

/* Dependencies are the stream's order here; only an empty update (which
 * changes nothing) can be honoured. */
static CUresult update_deps(CUstream s, size_t ndeps, unsigned flags)
{
    if (flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_stream_ok(s))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!sim_capturing(s))
        return CUDA_ERROR_ILLEGAL_STATE;
    return ndeps == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    if (!mode || (unsigned)*mode > CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    CUstreamCaptureMode old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m) { return begin(s, m); }
CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m) { return begin(s, m); }
CUresult cuStreamEndCapture(CUstream s, CUgraph *g) { return end(s, g); }
CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g) { return end(s, g); }
CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st) { return is_capturing(s, st); }
CUresult cuStreamIsCapturing_ptsz(CUstream s, CUstreamCaptureStatus *st) { return is_capturing(s, st); }
CUresult cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id) { return capture_info(s, st, id, NULL, NULL, NULL, NULL); }
CUresult cuStreamGetCaptureInfo_ptsz(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id) { return capture_info(s, st, id, NULL, NULL, NULL, NULL); }
CUresult cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **d, size_t *n) { return capture_info(s, st, id, g, d, NULL, n); }
CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **d, size_t *n) { return capture_info(s, st, id, g, d, NULL, n); }
CUresult cuStreamGetCaptureInfo_v3(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **d, const CUgraphEdgeData **e, size_t *n) { return capture_info(s, st, id, g, d, e, n); }
CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream s, CUstreamCaptureStatus *st, cuuint64_t *id, CUgraph *g, const CUgraphNode **d, const CUgraphEdgeData **e, size_t *n) { return capture_info(s, st, id, g, d, e, n); }
CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *d, size_t n, unsigned f) { (void)d; return update_deps(s, n, f); }
CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream s, CUgraphNode *d, size_t n, unsigned f) { (void)d; return update_deps(s, n, f); }
CUresult cuStreamUpdateCaptureDependencies_v2(CUstream s, CUgraphNode *d, const CUgraphEdgeData *e, size_t n, unsigned f) { (void)d; (void)e; return update_deps(s, n, f); }
CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream s, CUgraphNode *d, const CUgraphEdgeData *e, size_t n, unsigned f) { (void)d; (void)e; return update_deps(s, n, f); }
