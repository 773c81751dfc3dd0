/* cublasLtMatrixTransform hook: a transpose becomes a pending record
 * (unless refused, and then the log says why); any other transform is a
 * plain read/write access when something is pending. */
#include "lt/transform.h"
#include <stdlib.h>

#include "calls/hook_steps.h"
#include "lt/descriptors.h"
#include "streams/replay.h"
#include "core/state.h"
#include "algebra/sum.h"

static tf_transpose_desc lt_transform_desc(const lt_transform_call *c, const lt_transform *x)
{
    const lt_layout *d = &x->l[LT_XC];
    bool complex_type = pl_cuda_dtype_complex(d->type);
    return (tf_transpose_desc){
        .producer = "cublasLtMatrixTransform", .name = "cublasLtMatrixTransform", .dtype = pl_cuda_dtype_name(d->type),
        .src = lt_layout_view(&x->l[x->src], c->ptr[x->src]), .dst = lt_layout_view(d, c->ptr[LT_XC]),
        .conj = complex_type && x->op[x->src] == CUBLAS_OP_C, .complex_type = complex_type,
        .alpha = pl_scalar_scale(x->stype, &x->scalar[x->src], x->host),
        .stream = TF_STREAM(c->stream), .ctx = (uint64_t)(pl_current_device() + 1), .handle = TF_ADDR(c->handle),
    };
}

/* Reads of the operands that contribute, and (when `write`) C. */
static tf_access lt_transform_access(const lt_transform_call *c, const lt_transform *x, bool write)
{
    tf_access acc;
    tf_access_init(&acc, "cublasLtMatrixTransform", TF_STREAM(c->stream));
    if (!x->host)
        pl_access_scalars(&acc, x->stype, c->alpha, c->beta);
    for (int i = 0; i < 2; i++) {
        tf_view v = lt_layout_view(&x->l[i], c->ptr[i]);
        if (x->read[i])
            tf_access_read(&acc, tf_view_footprint(&v));
    }
    if (write)
        tf_access_write(&acc, lt_layout_view(&x->l[LT_XC], c->ptr[LT_XC]));
    return acc;
}

/* Deferred if the engine agrees, else run and reported (hook_steps.h). */
typedef struct produce_ctx { const lt_transform_call *c; const lt_transform *x; } produce_ctx;

static tf_replay make_replay(void *ctx)
{
    const produce_ctx *p = ctx;
    return lt_transform_replay(p->c, p->x);
}

static tf_access refused_access(void *ctx)
{
    const produce_ctx *p = ctx;
    return lt_transform_access(p->c, p->x, false);
}

static int invoke(void *ctx)
{
    return lt_transform_invoke(((const produce_ctx *)ctx)->c);
}

static cublasStatus_t produce(const lt_transform_call *c, const lt_transform *x)
{
    tf_transpose_desc d = lt_transform_desc(c, x);
    produce_ctx ctx = { c, x };
    pl_producer p = { .desc = &d, .refuse = x->refuse, .no_replay = TF_R_descriptor_copy,
                      .make_replay = make_replay, .access = refused_access, .invoke = invoke, .ctx = &ctx };
    return (cublasStatus_t)pl_produce(&p);
}

static cublasStatus_t access(const lt_transform_call *c, const lt_transform *x)
{
    tf_access acc = lt_transform_access(c, x, true);
    pl_note_access_begin(&acc);
    cublasStatus_t st = lt_transform_invoke(c);
    pl_note_access_end(&acc, st == CUBLAS_STATUS_SUCCESS);
    return st;
}

cublasStatus_t cublasLtMatrixTransform(cublasLtHandle_t handle, cublasLtMatrixTransformDesc_t desc,
                                       const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                                       const void *beta, const void *B, cublasLtMatrixLayout_t Bdesc, void *C,
                                       cublasLtMatrixLayout_t Cdesc, cudaStream_t stream)
{
    TF_REAL_OR(cublasLtMatrixTransform, TF_MISSING_CUBLASLT);
    lt_transform_call c = { .handle = handle, .desc = desc, .alpha = alpha, .beta = beta, .ptr = { A, B, C },
                        .lay = { Adesc, Bdesc, Cdesc }, .stream = stream };
    if (!pl_active())
        return lt_transform_invoke(&c);
    lt_transform x;
    switch (lt_transform_classify(&c, &x)) {
    case LT_X_INVALID:
        return lt_transform_invoke(&c);
    case LT_X_UNKNOWN:
        if (pl_watching())
            pl_note_materialize_all(TF_STREAM(stream), TF_WHY(lt_transform_unreadable));
        return lt_transform_invoke(&c);
    case LT_X_OK:
        break;
    }
    if (x.transpose)
        return produce(&c, &x);
    return pl_watching() ? access(&c, &x) : lt_transform_invoke(&c);
}

/* Recognising a transpose in a cublasLtMatrixTransform (rule in
 * transform.h) and checking what the library would reject before any
 * memory is touched, so a deferred call never hides an error. */
static bool transposes(const lt_transform *x, int i)
{
    return x->has[i] && (lt_layout_row(&x->l[i]) ^ lt_layout_row(&x->l[LT_XC]) ^ (x->op[i] != CUBLAS_OP_N));
}

/* op(X) must have C's logical shape and batch count. */
static bool operand_fits(const lt_transform *x, int i)
{
    const lt_layout *l = &x->l[i], *c = &x->l[LT_XC];
    bool n = x->op[i] == CUBLAS_OP_N;
    return (n ? l->rows : l->cols) == c->rows && (n ? l->cols : l->rows) == c->cols && l->batch == c->batch;
}

static lt_transform_kind read_shadows(const lt_transform_call *c, lt_transform *x)
{
    lt_attrs a;
    if (!lt_shadow_get(LT_TRANSFORM, c->desc, &a))
        return LT_X_UNKNOWN;
    x->op[0] = (cublasOperation_t)lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, CUBLAS_OP_N);
    x->op[1] = (cublasOperation_t)lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSB, CUBLAS_OP_N);
    x->stype = lt_scale_stype(lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_SCALE_TYPE, -1));
    x->host = lt_attrs_int(&a, CUBLASLT_MATRIX_TRANSFORM_DESC_POINTER_MODE, CUBLASLT_POINTER_MODE_HOST) ==
              CUBLASLT_POINTER_MODE_HOST;
    for (int i = 0; i < 3; i++) {
        if (i < 2 && !(x->has[i] = c->ptr[i] && c->lay[i]))
            continue;
        if (!lt_shadow_get(LT_LAYOUT, c->lay[i], &a))
            return LT_X_UNKNOWN;
        x->l[i] = lt_layout_decode(&a);
        if (!x->l[i].plain)
            return LT_X_UNKNOWN;
    }
    return LT_X_OK;
}

static lt_transform_kind validate(const lt_transform_call *c, lt_transform *x)
{
    if (!c->handle || !c->desc || !c->lay[LT_XC] || !c->ptr[LT_XC] || !c->alpha || !c->beta)
        return LT_X_INVALID;
    lt_transform_kind k = read_shadows(c, x);
    if (k != LT_X_OK)
        return k;
    if (x->stype == TF_S_NONE || x->stype == TF_S_I32)
        return LT_X_INVALID;
    for (int i = 0; i < 2; i++)
        if (x->has[i] && (!lt_op_valid(x->op[i]) || !operand_fits(x, i)))
            return LT_X_INVALID;
    return LT_X_OK;
}

lt_transform_kind lt_transform_classify(const lt_transform_call *c, lt_transform *x)
{
    *x = (lt_transform){0};
    lt_transform_kind k = validate(c, x);
    if (k != LT_X_OK)
        return k;
    const void *scalars[2] = { c->alpha, c->beta };
    tf_sum sum = { .host = x->host, .stream_usable = true };
    for (int i = 0; i < 2; i++) {
        x->scalar[i] = pl_scalar_load(x->stype, x->host ? scalars[i] : NULL);
        sum.term[i] = (tf_sum_term){ x->has[i], transposes(x, i), pl_scalar_is_zero(x->stype, &x->scalar[i]),
                                     x->l[i].type != x->l[LT_XC].type };
    }
    tf_sum_plan p = tf_sum_classify(&sum);
    x->transpose = p.transpose;
    x->src = p.src;
    x->read[0] = p.read[0];
    x->read[1] = p.read[1];
    x->refuse = p.refuse;
    return LT_X_OK;
}

/* The replay of a deferred cublasLtMatrixTransform: the same call on its
 * own stream and device, with descriptors copied at record time (the
 * program may change or destroy its own right after the call) and the
 * scalars copied by value. */
typedef struct xform_replay {
    lt_transform_call c;                 /* desc and layouts are our copies */
    pl_scalar scalar[2];
    uint64_t stream;                 /* its stream id (pl_stream_id) */
    int device;
} xform_replay;

static void xform_release(void *arg)
{
    xform_replay *r = arg;
    lt_unbuild(LT_TRANSFORM, r->c.desc);
    for (int i = 0; i < 3; i++)
        lt_unbuild(LT_LAYOUT, r->c.lay[i]);
    free(r);
}

static int xform_invoke(void *c) { return lt_transform_invoke(c); }

/* The call on stream id `stream`, writing to `dst`; with `trigger`, that
 * stream is then ordered after it. */
static int issue(xform_replay *r, void *dst, uint64_t stream, const uint64_t *trigger)
{
    lt_transform_call c = r->c;
    c.alpha = &r->scalar[0];
    c.beta = &r->scalar[1];
    c.ptr[LT_XC] = dst;
    c.stream = (cudaStream_t)(uintptr_t)pl_stream_arg(stream);
    return pl_replay_issue((pl_place){ r->device, NULL }, stream, trigger, xform_invoke, &c);
}

static int xform_run(void *arg, uint64_t trigger)
{
    xform_replay *r = arg;
    return issue(r, (void *)(uintptr_t)r->c.ptr[LT_XC], r->stream, &trigger);
}

static int xform_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    return issue(arg, (void *)(uintptr_t)dst, stream, NULL);
}

static bool copy_descriptors(xform_replay *r, const lt_transform_call *c, const lt_transform *x)
{
    r->c.desc = lt_clone(LT_TRANSFORM, c->desc);
    bool ok = r->c.desc != NULL;
    for (int i = 0; i < 3; i++) {
        bool needed = i == LT_XC || x->has[i];
        r->c.lay[i] = needed ? lt_clone(LT_LAYOUT, c->lay[i]) : NULL;
        ok = ok && (!needed || r->c.lay[i]);
    }
    return ok;
}

tf_replay lt_transform_replay(const lt_transform_call *c, const lt_transform *x)
{
    xform_replay *r = calloc(1, sizeof *r);
    if (!r)
        return (tf_replay){0};
    r->c = *c;
    r->scalar[0] = x->scalar[0];
    r->scalar[1] = x->scalar[1];
    r->stream = TF_STREAM(c->stream);
    r->device = pl_current_device();
    if (!copy_descriptors(r, c, x)) {
        xform_release(r);
        return (tf_replay){0};
    }
    return (tf_replay){ .run = xform_run, .release = xform_release, .arg = r, .run_to = xform_run_to };
}
