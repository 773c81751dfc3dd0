/* Deferred GEMMs (output folding, on unless TRANSFOLD_OUTPUT_FOLD=0): the
 * call, its host scalars and the handle's settings copied; replayed on the
 * program's own handle (a GEMM reads the handle's math mode and workspace,
 * which transfold's own handle would not have), under the stream, math
 * and atomics modes, SM count target, emulation settings and workspace it
 * was called with, each set for the call where it differs and put back
 * after (program_handle.c). Swapped, it writes C^T = op(B)^T op(A)^T. An
 * operand may be copied aside (stream-ordered scratch, freed on the
 * GEMM's stream with the replay) for an output fold to write where it
 * lay; the replay reads the copy from then on. */
#include <stdlib.h>

#include "cublas/gemm_replay.h"
#include "cublas/program_handle.h"
#include "core/state.h"
#include "streams/replay.h"
#include "streams/rt_error.h"
#include "streams/scratch.h"
#include "streams/stream_id.h"

typedef struct gemm_replay {
    const gemm_kind *kind;
    gemm_args a;
    pl_scalar alpha, beta;
    uint64_t stream;
    int device;
    pl_handle_settings settings;
    uint64_t copy[2]; /* A and B copied aside (0: none) */
} gemm_replay;

typedef struct gemm_issue { const gemm_replay *r; cudaStream_t on; gemm_args a; } gemm_issue;

static int gemm_issue_invoke(void *arg)
{
    gemm_issue *g = arg;
    g->a.alpha = &g->r->alpha;
    g->a.beta = &g->r->beta;
    return g->r->kind->invoke(&g->a);
}

static int on_program_handle(void *arg)
{
    gemm_issue *g = arg;
    return pl_on_program_handle(g->a.handle, g->on, &g->r->settings, gemm_issue_invoke, g);
}

static int issue(const gemm_replay *r, uint64_t stream, const gemm_args *a, const uint64_t *trigger)
{
    gemm_issue g = { r, (cudaStream_t)(uintptr_t)pl_stream_arg(stream), *a };
    return pl_replay_issue((pl_place){ r->device, NULL }, stream, trigger, on_program_handle, &g);
}

static int replay_run(void *arg, uint64_t trigger)
{
    const gemm_replay *r = arg;
    return issue(r, r->stream, &r->a, &trigger);
}

/* The op that reads op(X)^T from X; false when none does (conjugate
 * without transpose: the engine never defers complex GEMMs). */
static bool flipped(cublasOperation_t op, cublasOperation_t *out)
{
    *out = op == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T;
}

/* (op(A) op(B))^T = op(B)^T op(A)^T: B as the first operand, A second. */
int pl_gemm_replay_transposed(void *arg, uint64_t dst, int64_t ld, int64_t stride, uint64_t stream)
{
    const gemm_replay *r = arg;
    gemm_args b = r->a;
    if (!flipped(r->a.tb, &b.ta) || !flipped(r->a.ta, &b.tb))
        return -1;
    b.m = r->a.n, b.n = r->a.m;
    b.A = r->a.B, b.lda = r->a.ldb, b.sa = r->a.sb, b.at = r->a.bt;
    b.B = r->a.A, b.ldb = r->a.lda, b.sb = r->a.sa, b.bt = r->a.at;
    b.C = (void *)(uintptr_t)dst, b.ldc = ld, b.sc = stride;
    return issue(r, stream, &b, NULL);
}

typedef struct copy_call { gemm_replay *r; int operand; tf_range from; uint64_t stream, to; } copy_call;

static int copy_issue(void *arg)
{
    copy_call *c = arg;
    uint64_t bytes = c->from.hi - c->from.lo;
    c->to = pl_scratch_alloc_on(bytes, c->stream);
    if (!c->to)
        return -1;
    if (pl_scratch_copy(c->to, c->from.lo, bytes, c->stream)) {
        pl_scratch_free_on(c->to, c->stream);
        return -1;
    }
    return 0;
}

/* The operand's bytes `from` (its footprint: its pointer lies inside) to
 * scratch; its pointer then moves by the same offset. */
int pl_gemm_replay_copy_operand(void *arg, int operand, tf_range from, uint64_t stream, uint64_t *to)
{
    gemm_replay *r = arg;
    const void **ptr = operand == 0 ? &r->a.A : &r->a.B;
    uint64_t at = TF_ADDR(*ptr);
    if (operand < 0 || operand > 1 || r->copy[operand] || at < from.lo || at >= from.hi)
        return -1;
    copy_call c = { r, operand, from, stream, 0 };
    int held = pl_rt_error_hold();
    int st = pl_replay_issue((pl_place){ r->device, NULL }, stream, NULL, copy_issue, &c);
    pl_rt_error_release(held);
    if (st)
        return st;
    r->copy[operand] = c.to;
    *ptr = (const void *)(uintptr_t)(c.to + (at - from.lo));
    *to = c.to;
    return 0;
}

static int copies_free(void *arg)
{
    gemm_replay *r = arg;
    for (int i = 0; i < 2; i++)
        if (r->copy[i])
            pl_scratch_free_on(r->copy[i], r->stream);
    return 0;
}

static void replay_free(void *arg)
{
    gemm_replay *r = arg;
    if (r->copy[0] || r->copy[1]) {
        int held = pl_rt_error_hold();
        pl_replay_issue((pl_place){ r->device, NULL }, r->stream, NULL, copies_free, r);
        pl_rt_error_release(held);
    }
    free(r);
}

tf_replay pl_gemm_replay_new(const gemm_kind *k, const gemm_args *a, pl_stype t, uint64_t stream,
                             const pl_handle_settings *settings)
{
    gemm_replay *r = malloc(sizeof *r);
    if (!r)
        return (tf_replay){0};
    *r = (gemm_replay){ .kind = k, .a = *a, .alpha = pl_scalar_load(t, a->alpha), .beta = pl_scalar_load(t, a->beta),
                        .stream = stream, .device = pl_current_device(),
                        .settings = *settings };
    return (tf_replay){ .run = replay_run, .release = replay_free, .arg = r };
}
