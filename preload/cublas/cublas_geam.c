/* cublas{S,D,C,Z}geam(_64): the cuBLAS transpose producer.
 *
 * C = alpha*op(A) + beta*op(B) is a pure transpose of A when op(A) is T or C
 * and beta is 0, and of B when op(B) is T or C and alpha is 0. Then the call
 * can become a pending record whose replay is this very call. */
#include <stdatomic.h>
#include <stdlib.h>

#include "calls/describe.h"
#include "cublas/program_handle.h"
#include "calls/hook_steps.h"
#include "tables/hooks.h"
#include "streams/replay.h"
#include "core/state.h"
#include "algebra/sum.h"

typedef struct geam_args {
    cublasHandle_t handle;
    cublasOperation_t ta, tb;
    int64_t m, n;
    const void *alpha, *A;
    int64_t lda;
    const void *beta, *B;
    int64_t ldb;
    void *C;
    int64_t ldc;
} geam_args;

typedef struct geam_kind {
    const char *api, *dtype;
    pl_fn_id id;
    pl_stype t;
    uint32_t elem;
    cublasStatus_t (*invoke)(const geam_args *a);
} geam_kind;

/* Everything a replay needs, copied: the program may reuse its scalars,
 * change the handle's stream or pointer mode, or switch devices. */
typedef struct geam_replay {
    const geam_kind *kind;
    geam_args a;
    pl_scalar alpha, beta;
    uint64_t stream;
    int device;
} geam_replay;

/* What a geam call is, once its scalars are known. */
typedef struct geam_plan {
    bool transpose;     /* one operand is transposed into C */
    bool a_src;         /* that operand is A (else B) */
    bool read_a, read_b;
    bool host;          /* alpha and beta were readable */
    uint64_t stream;    /* the handle's stream id */
    int device;         /* current at the call */
    tf_reason refuse;   /* why it cannot be deferred */
} geam_plan;

static bool op_transposes(cublasOperation_t op) { return op != CUBLAS_OP_N; }

/* The argument checks cuBLAS makes; a call failing them goes straight
 * through so its status is exactly cuBLAS's. */
static bool geam_valid(const geam_args *a)
{
    int64_t ra = op_transposes(a->ta) ? a->n : a->m, rb = op_transposes(a->tb) ? a->n : a->m;
    if (!a->handle || !pl_cublas_op_valid(a->ta) || !pl_cublas_op_valid(a->tb))
        return false;
    if (a->m <= 0 || a->n <= 0 || !a->alpha || !a->beta)
        return false;
    if (a->lda < (ra > 1 ? ra : 1) || a->ldb < (rb > 1 ? rb : 1) || a->ldc < (a->m > 1 ? a->m : 1))
        return false;
    if (a->C == a->A && (a->lda != a->ldc || op_transposes(a->ta)))
        return false;
    return !(a->C == a->B && (a->ldb != a->ldc || op_transposes(a->tb)));
}

static tf_view geam_operand(const geam_kind *k, const geam_args *a, bool is_a)
{
    cublasOperation_t op = is_a ? a->ta : a->tb;
    int64_t rows = op_transposes(op) ? a->n : a->m, cols = op_transposes(op) ? a->m : a->n;
    return pl_matrix(is_a ? a->A : a->B, k->elem, rows, cols, is_a ? a->lda : a->ldb, 1, 0);
}

static tf_view geam_output(const geam_kind *k, const geam_args *a)
{
    return pl_matrix(a->C, k->elem, a->m, a->n, a->ldc, 1, 0);
}

/* The engine decides (tf_sum_classify); the stream is only asked about
 * when the call transposes. */
static geam_plan geam_classify(const geam_kind *k, const geam_args *a, bool host,
                               const pl_scalar *alpha, const pl_scalar *beta)
{
    bool ta = op_transposes(a->ta), tb = op_transposes(a->tb);
    geam_plan p = { .host = host, .stream = pl_cublas_stream(a->handle), .device = -1 };
    tf_sum s = { .term = { { true, ta, host && pl_scalar_is_zero(k->t, alpha), false },
                           { true, tb, host && pl_scalar_is_zero(k->t, beta), false } },
                 .host = host, .stream_usable = !(ta || tb) || pl_stream_usable(p.stream) };
    tf_sum_plan sp = tf_sum_classify(&s);
    p.transpose = sp.transpose;
    p.a_src = sp.src == TF_SUM_A;
    p.read_a = sp.read[TF_SUM_A];
    p.read_b = sp.read[TF_SUM_B];
    p.refuse = sp.refuse;
    return p;
}

static tf_transpose_desc geam_desc(const geam_kind *k, const geam_args *a, const geam_plan *p,
                                   const pl_scalar *alpha, const pl_scalar *beta)
{
    cublasOperation_t op = p->a_src ? a->ta : a->tb;
    return (tf_transpose_desc){
        .producer = k->api, .name = k->api, .dtype = k->dtype,
        .src = geam_operand(k, a, p->a_src), .dst = geam_output(k, a),
        .conj = op == CUBLAS_OP_C && pl_stype_complex(k->t),
        .complex_type = pl_stype_complex(k->t),
        .alpha = pl_scalar_scale(k->t, p->a_src ? alpha : beta, p->host),
        .stream = p->stream, .ctx = (uint64_t)(p->device + 1),
        .handle = TF_ADDR(a->handle),
        .static_strings = true, /* the kinds' names: string literals */
    };
}

/* Reads and writes of a geam that is not deferred, beyond what the engine
 * derives from a refused producer's views. */
static tf_access geam_access(const geam_kind *k, const geam_args *a, const geam_plan *p, bool write)
{
    tf_access acc;
    tf_access_init(&acc, k->api, p->stream);
    tf_view va = geam_operand(k, a, true), vb = geam_operand(k, a, false);
    if (!p->host)
        pl_access_scalars(&acc, k->t, a->alpha, a->beta);
    if (p->read_a)
        tf_access_read(&acc, tf_view_footprint(&va));
    if (p->read_b)
        tf_access_read(&acc, tf_view_footprint(&vb));
    if (write)
        tf_access_write(&acc, geam_output(k, a));
    return acc;
}

/* The recorded call on the program's handle (program_handle.h), on stream
 * `on`, writing to `c`. Only used when transfold's own handle cannot be
 * had: another thread may be using the program's handle between its own
 * settings and calls. */
typedef struct geam_call { const geam_replay *r; cudaStream_t on; void *c; } geam_call;

static int geam_call_invoke(void *arg)
{
    const geam_call *g = arg;
    geam_args a = g->r->a;
    a.alpha = &g->r->alpha;
    a.beta = &g->r->beta;
    a.C = g->c;
    return g->r->kind->invoke(&a);
}

static int geam_on_program_handle(const geam_call *g)
{
    return pl_on_program_handle(g->r->a.handle, g->on, NULL, geam_call_invoke, (void *)g);
}

/* Replays run through a handle of transfold's own, one per device, made on
 * first use and only used with the engine locked: the program's handle is
 * never touched, whatever thread is using it. geam reads no handle state
 * but the stream and pointer mode, both set here. */
#define TF_MAX_DEVICES 64
static cublasHandle_t own_handles[TF_MAX_DEVICES];

static cublasHandle_t own_handle(void)
{
    int dev = pl_current_device();
    if (dev < 0 || dev >= TF_MAX_DEVICES)
        return NULL;
    pl_fn_cublasCreate_v2 create = TF_REAL(cublasCreate_v2);
    if (!own_handles[dev] && create && create(&own_handles[dev]) != CUBLAS_STATUS_SUCCESS)
        own_handles[dev] = NULL;
    return own_handles[dev];
}

static int geam_on_handle(void *arg)
{
    const geam_call *g = arg;
    cublasHandle_t h = own_handle();
    if (!h || TF_REAL(cublasSetStream_v2)(h, g->on) != CUBLAS_STATUS_SUCCESS ||
        TF_REAL(cublasSetPointerMode_v2)(h, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return geam_on_program_handle(g);
    geam_args a = g->r->a;
    a.handle = h;
    a.alpha = &g->r->alpha;
    a.beta = &g->r->beta;
    a.C = g->c;
    return g->r->kind->invoke(&a);
}

static int geam_issue(const geam_replay *r, uint64_t stream, void *c, const uint64_t *trigger)
{
    geam_call call = { r, (cudaStream_t)(uintptr_t)pl_stream_arg(stream), c };
    return pl_replay_issue((pl_place){ r->device, NULL }, stream, trigger, geam_on_handle, &call);
}

static int geam_replay_run(void *arg, uint64_t trigger)
{
    geam_replay *r = arg;
    return geam_issue(r, r->stream, r->a.C, &trigger);
}

static int geam_replay_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    return geam_issue(arg, stream, (void *)(uintptr_t)dst, NULL);
}

/* One released replay is kept for the next deferred geam, so that the
 * steady state (a transpose deferred and dropped per iteration) allocates
 * nothing; an atomic exchange keeps it safe across threads. */
static _Atomic(geam_replay *) geam_spare;

static void geam_replay_release(void *arg)
{
    geam_replay *none = NULL;
    if (!atomic_compare_exchange_strong(&geam_spare, &none, (geam_replay *)arg))
        free(arg);
}

static tf_replay geam_replay_new(const geam_kind *k, const geam_args *a, const pl_scalar *alpha,
                                 const pl_scalar *beta, const geam_plan *p)
{
    geam_replay *r = atomic_exchange(&geam_spare, NULL);
    if (!r && !(r = malloc(sizeof *r)))
        return (tf_replay){0};
    *r = (geam_replay){ .kind = k, .a = *a, .alpha = *alpha, .beta = *beta, .stream = p->stream,
                        .device = p->device };
    return (tf_replay){ .run = geam_replay_run, .release = geam_replay_release, .arg = r,
                        .run_to = geam_replay_run_to };
}

/* A transpose-shaped geam, through the shared producer steps. */
typedef struct geam_call_ctx {
    const geam_kind *k;
    const geam_args *a;
    const geam_plan *p;
    const pl_scalar *alpha, *beta;
} geam_call_ctx;

static tf_replay geam_make_replay(void *ctx)
{
    const geam_call_ctx *c = ctx;
    return geam_replay_new(c->k, c->a, c->alpha, c->beta, c->p);
}

static tf_access geam_refused_access(void *ctx)
{
    const geam_call_ctx *c = ctx;
    return geam_access(c->k, c->a, c->p, false);
}

static int geam_invoke(void *ctx)
{
    const geam_call_ctx *c = ctx;
    return TF_PASS(c->k->invoke(c->a));
}

static cublasStatus_t geam_producer(const geam_kind *k, const geam_args *a, geam_plan *p,
                                    const pl_scalar *alpha, const pl_scalar *beta)
{
    p->device = pl_current_device();
    tf_transpose_desc d = geam_desc(k, a, p, alpha, beta);
    geam_call_ctx ctx = { k, a, p, alpha, beta };
    pl_producer pr = { .desc = &d, .refuse = p->refuse, .no_replay = TF_R_replay_alloc,
                       .make_replay = geam_make_replay, .access = geam_refused_access, .invoke = geam_invoke,
                       .ctx = &ctx, .replay_only_allocates = true };
    return (cublasStatus_t)pl_produce(&pr);
}

static cublasStatus_t geam_hook(const geam_kind *k, const geam_args *a)
{
    if (!pl_real_get(k->id))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!pl_active() || !geam_valid(a))
        return TF_PASS(k->invoke(a));
    bool host = pl_cublas_host_pointers(a->handle);
    pl_scalar alpha = host ? pl_scalar_load(k->t, a->alpha) : (pl_scalar){0};
    pl_scalar beta = host ? pl_scalar_load(k->t, a->beta) : (pl_scalar){0};
    geam_plan p = geam_classify(k, a, host, &alpha, &beta);
    if (p.transpose)
        return geam_producer(k, a, &p, &alpha, &beta);
    if (!pl_watching())
        return TF_PASS(k->invoke(a));
    tf_access acc = geam_access(k, a, &p, true);
    pl_note_access_begin(&acc);
    cublasStatus_t st = TF_PASS(k->invoke(a));
    pl_note_access_end(&acc, st == CUBLAS_STATUS_SUCCESS);
    return st;
}

#define GEAM_VARIANT(NAME, T, I, STYPE, DTYPE)                                                      \
    static cublasStatus_t invoke_##NAME(const geam_args *a)                                         \
    {                                                                                               \
        return TF_REAL(NAME)(a->handle, a->ta, a->tb, (I)a->m, (I)a->n, a->alpha, a->A, (I)a->lda, \
                             a->beta, a->B, (I)a->ldb, a->C, (I)a->ldc);                            \
    }                                                                                               \
    static const geam_kind kind_##NAME = { #NAME, DTYPE, TF_ID_##NAME, STYPE, sizeof(T),            \
                                           invoke_##NAME };                                         \
    cublasStatus_t NAME(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, I m,     \
                        I n, const T *alpha, const T *A, I lda, const T *beta, const T *B, I ldb,   \
                        T *C, I ldc)                                                                \
    {                                                                                               \
        geam_args a = { handle, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc };                \
        return geam_hook(&kind_##NAME, &a);                                                         \
    }

GEAM_VARIANT(cublasSgeam, float, int, TF_S_F32, "f32")
GEAM_VARIANT(cublasDgeam, double, int, TF_S_F64, "f64")
GEAM_VARIANT(cublasCgeam, cuComplex, int, TF_S_C32, "c64")
GEAM_VARIANT(cublasZgeam, cuDoubleComplex, int, TF_S_C64, "c128")
GEAM_VARIANT(cublasSgeam_64, float, int64_t, TF_S_F32, "f32")
GEAM_VARIANT(cublasDgeam_64, double, int64_t, TF_S_F64, "f64")
GEAM_VARIANT(cublasCgeam_64, cuComplex, int64_t, TF_S_C32, "c64")
GEAM_VARIANT(cublasZgeam_64, cuDoubleComplex, int64_t, TF_S_C64, "c128")
