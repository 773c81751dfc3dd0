/* cuBLAS GEMM/GEMV consumers: describe the operands, let the engine fold
 * them onto pending transposes, call cuBLAS with what it says. */
#include <string.h>

#include "cublas/cublas_gemm.h"
#include "cublas/gemm_replay.h"
#include "calls/gemm_verify.h"
#include "calls/hook_steps.h"
#include "core/state.h"

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

static bool gemm_valid(const gemm_kind *k, const gemm_args *a)
{
    if (!a->handle || !pl_cublas_op_valid(a->ta) || !a->alpha || !a->beta)
        return false;
    if (a->m < 0 || a->n < 0 || a->batch < 0)
        return false;
    if (k->stype == TF_S_NONE && !pl_gemm_ex_types_valid(a->compute, a->at, a->bt, a->ct))
        return false;
    if (k->shape == GEMM_MATVEC)
        return a->lda >= max1(a->m) && a->ldb != 0 && a->ldc != 0;
    if (!pl_cublas_op_valid(a->tb) || a->k < 0)
        return false;
    return a->lda >= max1(a->ta == CUBLAS_OP_N ? a->m : a->k) &&
           a->ldb >= max1(a->tb == CUBLAS_OP_N ? a->k : a->n) && a->ldc >= max1(a->m);
}

/* What the call touches, in the engine's terms. */
typedef struct gemm_desc {
    tf_gemm g;
    bool is_b[2];      /* which argument each engine operand is */
    pl_stype stype;
    bool known;        /* every type understood */
    bool matvec;
} gemm_desc;

static void add_operand(gemm_desc *d, const char *role, tf_view v, cublasOperation_t op, bool is_b)
{
    int i = d->g.nin++;
    tf_operand *o = &d->g.in[i];
    o->role = role, o->v = v, o->op = pl_op_from_cublas(op), o->refuse = TF_R_NONE;
    d->is_b[i] = is_b;
}

/* The sizes of the types of A, B and C (0: unknown), looked up once. */
typedef struct gemm_sizes { uint32_t a, b, c; } gemm_sizes;

static void describe_matmul(gemm_desc *d, const gemm_args *a, gemm_sizes sz)
{
    uint32_t ea = sz.a, eb = sz.b, ec = sz.c;
    d->known = ea && eb && ec && d->stype != TF_S_NONE;
    if (a->k > 0) {
        bool na = a->ta == CUBLAS_OP_N, nb = a->tb == CUBLAS_OP_N;
        add_operand(d, "A", pl_matrix(a->A, ea, na ? a->m : a->k, na ? a->k : a->m, a->lda, a->batch, a->sa),
                    a->ta, false);
        add_operand(d, "B", pl_matrix(a->B, eb, nb ? a->k : a->n, nb ? a->n : a->k, a->ldb, a->batch, a->sb),
                    a->tb, true);
    }
    tf_access_write(&d->g.acc, pl_matrix(a->C, ec, a->m, a->n, a->ldc, a->batch, a->sc));
    d->g.splittable = a->batch > 1; /* a strided-batched call: issued in runs of its batches */
    d->g.m = a->m;
    d->g.n = a->n;
    d->g.k = a->k;
}

static void describe_matvec(gemm_desc *d, const gemm_args *a, gemm_sizes sz)
{
    uint32_t e = sz.a;
    bool n = a->ta == CUBLAS_OP_N;
    int64_t xlen = n ? a->n : a->m, ylen = n ? a->m : a->n;
    d->known = e != 0;
    add_operand(d, "A", pl_matrix(a->A, e, a->m, a->n, a->lda, 1, 0), a->ta, false);
    tf_view x = pl_vector(a->B, e, xlen, a->ldb);
    tf_access_read(&d->g.acc, tf_view_footprint(&x));
    tf_access_write(&d->g.acc, pl_vector(a->C, e, ylen, a->ldc));
    d->g.m = ylen;
    d->g.n = 1;
    d->g.k = xlen;
}

/* Fills *d (its arrays only up to their counts are meaningful). */
static void gemm_describe(const gemm_kind *k, const gemm_args *a, gemm_desc *d)
{
    /* Field by field: the access's range arrays are only read below their counts. */
    d->stype = k->stype != TF_S_NONE ? k->stype : pl_compute_stype(a->compute, a->ct);
    bool host = pl_cublas_host_pointers(a->handle);
    tf_gemm_init(&d->g, k->api, pl_cublas_stream(a->handle));
    /* Each type's entry read once (stores to d between reads kept the
     * compiler from reusing them). */
    const pl_dtype_info *ta = pl_dtype(a->at), *tb = pl_dtype(a->bt), *tc = pl_dtype(a->ct);
    gemm_sizes sz = { ta ? ta->size : 0, tb ? tb->size : 0, tc ? tc->size : 0 };
    d->g.dtype = ta ? ta->name : "unknown";
    d->g.complex_type = tc && tc->complex;
    d->g.alpha_host = host && d->stype != TF_S_NONE && d->stype != TF_S_I32;
    d->matvec = k->shape == GEMM_MATVEC;
    if (d->matvec)
        describe_matvec(d, a, sz);
    else
        describe_matmul(d, a, sz);
    if (!host)
        pl_access_scalars(&d->g.acc, d->stype, a->alpha, a->beta);
    /* Unless beta is a known 0, the output is read as well. */
    pl_scalar beta = pl_scalar_load(d->stype, host ? a->beta : NULL);
    if (!(host && d->stype != TF_S_NONE && pl_scalar_is_zero(d->stype, &beta)))
        tf_access_read(&d->g.acc, tf_view_footprint(&d->g.acc.writes[0]));
}

/* *b: the call with the plan's operands and scale; `alpha` holds the new scale. */
static void gemm_rewrite(const gemm_desc *d, const gemm_args *a, const tf_plan *plan, pl_scalar *alpha,
                         gemm_args *b)
{
    *b = *a;
    for (int i = 0; i < d->g.nin; i++) {
        const tf_rewrite *r = &plan->in[i];
        if (!r->folded)
            continue;
        const void *p = (const void *)(uintptr_t)r->addr;
        cublasOperation_t op = pl_op_to_cublas(r->op);
        if (d->is_b[i]) {
            b->B = p, b->ldb = r->ld, b->tb = op;
            b->sb = a->sb ? r->stride : 0;
        } else {
            b->A = p, b->lda = r->ld, b->ta = op;
            b->sa = a->sa ? r->stride : 0;
            /* A GEMV's m x n is A as stored, and the fold stores it transposed. */
            if (d->matvec)
                b->m = a->n, b->n = a->m;
        }
    }
    if (plan->alpha_mul != 1.0) {
        *alpha = pl_scalar_load(d->stype, a->alpha);
        pl_scalar_mul(d->stype, alpha, plan->alpha_mul);
        b->alpha = alpha;
    }
}

/* A call, as the consumer paths pass it around. */
typedef struct gemm_call { const gemm_kind *k; const gemm_args *a; const gemm_desc *d; } gemm_call;

/* A two-level fold's call `gi` of plan->groups (tf_rewrite.groups): b's
 * batches from gi * b->batch on; a folded operand that was split moves
 * its group stride, every other operand its own stride times the batches
 * of a call. */
static void gemm_group(const gemm_desc *d, const tf_plan *plan, const gemm_args *b, int64_t gi, gemm_args *part)
{
    *part = *b;
    for (int i = 0; i < d->g.nin; i++) {
        const tf_rewrite *r = &plan->in[i];
        bool split = r->folded && r->groups > 1;
        long long stride = d->is_b[i] ? b->sb : b->sa;
        uint64_t step = d->g.in[i].v.elem * (uint64_t)(split ? r->group_stride : stride * b->batch);
        const char *base = d->is_b[i] ? b->B : b->A;
        if (d->is_b[i])
            part->B = base + gi * step;
        else
            part->A = base + gi * step;
    }
    part->C = (char *)b->C + gi * d->g.acc.writes[0].elem * (uint64_t)(b->sc * b->batch);
}

/* The rewritten call, as one call or as plan->groups calls. */
static int gemm_issue(const gemm_call *c, const tf_plan *plan, const gemm_args *b)
{
    if (plan->groups < 2)
        return TF_PASS(c->k->invoke(b));
    gemm_args part, whole = *b;
    whole.batch = b->batch / plan->groups;
    int st = CUBLAS_STATUS_SUCCESS;
    for (int64_t gi = 0; gi < plan->groups && st == CUBLAS_STATUS_SUCCESS; gi++) {
        gemm_group(c->d, plan, &whole, gi, &part);
        st = TF_PASS(c->k->invoke(&part));
    }
    return st;
}

/* Verify mode: the call as it would have run, reading replayed copies of
 * the records and writing a copy of the output. */
static int gemm_unfolded(void *arg, const pl_relocation *r)
{
    const gemm_call *c = arg;
    gemm_args b = *c->a;
    for (int i = 0; i < c->d->g.nin; i++) {
        if (c->d->is_b[i])
            b.B = pl_relocated(r, i, b.B);
        else
            b.A = pl_relocated(r, i, b.A);
    }
    b.C = (void *)(uintptr_t)r->c_to;
    return c->k->invoke(&b);
}

/* The rewritten call, when the plan has one (hook_steps.h). */
/* Inlined into both consume paths (the common one had it inline). */
static inline __attribute__((always_inline)) tf_reason gemm_folded(void *arg, const tf_plan *plan, int *st, bool *ran)
{
    const gemm_call *c = arg;
    if (!plan->any)
        return TF_R_NONE;
    pl_scalar alpha;
    gemm_args b;
    gemm_rewrite(c->d, c->a, plan, &alpha, &b);
    void *snapshot = pl_verify_enabled() ? pl_verify_start(&c->d->g) : NULL;
    *st = gemm_issue(c, plan, &b);
    if (*st != CUBLAS_STATUS_SUCCESS) {
        pl_verify_drop(snapshot);
        return TF_R_cublas_rejected;
    }
    if (snapshot)
        pl_verify_gemm(&c->d->g, plan, pl_cuda_dtype_name(c->a->ct), snapshot, gemm_unfolded, (void *)c);
    *ran = true;
    return TF_R_NONE;
}

static int gemm_invoke(void *arg)
{
    const gemm_call *c = arg;
    return TF_PASS(c->k->invoke(c->a));
}

/* Output folding's call: `skipped` when the unfolded call was left for
 * gemm_defer (the call first, so gemm_folded reads it as a gemm_call). */
typedef struct gemm_defer_call { gemm_call c; bool skipped; } gemm_defer_call;

static int gemm_skip(void *arg)
{
    ((gemm_defer_call *)arg)->skipped = true;
    return 0;
}

/* Output folding: a plain or strided-batched GEMM (host scalars, beta 0)
 * may wait for its output's first reader. */
static bool may_defer(const gemm_kind *k, const gemm_desc *d)
{
    return k->shape == GEMM_MATMUL &&
           d->g.acc.nreads == 0 && d->g.alpha_host && !d->g.complex_type &&
           atomic_load_explicit(&pl_mode_now, memory_order_relaxed) == TF_MODE_FOLD;
}

/* The GEMM the engine let wait (gemm_invoke skipped it): a pending record
 * now, or run after all (also when the handle's settings cannot all be
 * known: its replay could not run under them). */
static int gemm_defer(const gemm_kind *k, const gemm_args *a, const gemm_desc *d)
{
    pl_handle_settings hs;
    if (!pl_handle_settings_read(a->handle, &hs))
        return TF_PASS(k->invoke(a));
    tf_replay rp = pl_gemm_replay_new(k, a, d->stype, d->g.acc.stream, &hs);
    tf_range ws = { TF_ADDR(hs.ws), TF_ADDR(hs.ws) + (hs.ws ? hs.ws_size : 0) };
    static const tf_gemm_replay_ops ops = { pl_gemm_replay_transposed, pl_gemm_replay_copy_operand };
    tf_engine *e = pl_lock();
    bool deferred = e && rp.run && tf_gemm_defer(e, &d->g, (uint64_t)(uintptr_t)a->handle, ws, &rp, &ops);
    pl_unlock(e);
    if (deferred)
        return 0;
    if (rp.release)
        rp.release(rp.arg);
    return TF_PASS(k->invoke(a));
}

/* Out of line: the path of every GEMM when output folding is on. */
static __attribute__((noinline)) cublasStatus_t gemm_consume_deferring(const gemm_kind *k, const gemm_args *a,
                                                                       const gemm_desc *d)
{
    gemm_defer_call dc = { { k, a, d }, false };
    bool defer = may_defer(k, d);
    pl_consumer con = { .g = &d->g, .folded = gemm_folded, .invoke = defer ? gemm_skip : gemm_invoke, .ctx = &dc };
    int st = pl_consume(&con);
    return (cublasStatus_t)(dc.skipped ? gemm_defer(k, a, d) : st);
}

static cublasStatus_t gemm_consume(const gemm_kind *k, const gemm_args *a, const gemm_desc *d)
{
    if (__builtin_expect(pl_env_now.output_fold, 0))
        return gemm_consume_deferring(k, a, d);
    gemm_call c = { k, a, d };
    pl_consumer con = { .g = &d->g, .folded = gemm_folded, .invoke = gemm_invoke, .ctx = &c };
    return (cublasStatus_t)pl_consume(&con);
}

cublasStatus_t pl_gemm_hook(const gemm_kind *k, const gemm_args *a)
{
    if (!pl_real_get(k->id))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    bool empty = a->m == 0 || a->n == 0 || a->batch == 0;
    if (!pl_consumer_watching() || empty || !gemm_valid(k, a))
        return TF_PASS(k->invoke(a));
    gemm_desc d;
    gemm_describe(k, a, &d);
    if (!d.known) {
        pl_note_materialize_all(d.g.acc.stream, TF_WHY(gemm_types_unknown));
        return TF_PASS(k->invoke(a));
    }
    return gemm_consume(k, a, &d);
}
