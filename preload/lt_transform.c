/* cublasLtMatrixTransform hook: a transpose becomes a pending record
 * (unless refused, and then the log says why); any other transform is a
 * plain read/write access when something is pending. */
#include "hook_steps.h"
#include "lt_transform.h"
#include "state.h"

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
