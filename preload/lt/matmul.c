/* cublasLtMatmul: the consumer. Describe the call, let the engine fold A
 * or B onto pending transposes, and run it with derived descriptors and an
 * algorithm found for them; anything that stops the folded call (no
 * algorithm, a rejected descriptor, a failed launch) materialises and runs
 * the program's call as it was.
 *
 * Calls made from inside another intercepted call (cuBLAS 13's GEMMs call
 * cublasLtMatmul) were already described by that call and pass through. */
#include "lt/matmul.h"
#include <string.h>

#include "calls/gemm_verify.h"
#include "calls/hook_steps.h"
#include "lt/fold_cache.h"
#include "core/state.h"

/* The plan's rewrites, per operand; lt_fold_prepare puts their ops in
 * cuBLASLt terms. An operand counts when the engine found its record: in
 * log mode the rewrite is described but not marked folded. */
static void plan_fold(const tf_gemm *g, const tf_plan *plan, lt_fold *f)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < g->nin; i++) {
        const tf_rewrite *r = &plan->in[i];
        if (!r->record)
            continue;
        f->engine_op[i] = r->op;
        f->folded[i] = true;
        f->ptr[i] = (const void *)(uintptr_t)r->addr;
        f->ld[i] = r->ld;
        f->stride[i] = r->stride;
    }
}

static lt_matmul_call rewrite(const lt_matmul_call *c, const lt_fold *f, const lt_folded *fc)
{
    lt_matmul_call b = *c;
    b.desc = fc->desc;
    b.algo = fc->algo;
    for (int i = 0; i < 2; i++) {
        if (f->folded[i]) {
            b.ptr[i] = f->ptr[i];
            b.lay[i] = fc->lay[i];
        }
    }
    return b;
}

static cublasStatus_t run_folded(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_plan *plan,
                                 const lt_fold *f, const lt_folded *fc)
{
    lt_matmul_call b = rewrite(c, f, fc);
    pl_scalar alpha;
    if (plan->alpha_mul != 1.0) {
        alpha = pl_scalar_load(s->stype, c->alpha);
        pl_scalar_mul(s->stype, &alpha, plan->alpha_mul);
        b.alpha = &alpha;
    }
    return lt_matmul_invoke(&b);
}

/* The folded call, when the plan has one: made in fold mode, only checked
 * against the heuristic in log mode (so the log says what fold mode would
 * do). Returns why it cannot be made, or TF_R_NONE; *ran when it ran
 * (hook_steps.h). */
typedef struct consume_ctx { const lt_matmul_call *c; const lt_matmul_shadow *s; const tf_gemm *g; } consume_ctx;

static tf_reason try_folded(void *ctx, const tf_plan *plan, int *st, bool *ran)
{
    const consume_ctx *x = ctx;
    lt_fold f;
    lt_folded fc = {0};
    plan_fold(x->g, plan, &f);
    tf_reason why = lt_fold_prepare(x->c, x->s, &f, &fc);
    if (!why && plan->any) {
        void *snapshot = lt_matmul_verify_begin(x->g);
        *st = run_folded(x->c, x->s, plan, &f, &fc);
        *ran = *st == CUBLAS_STATUS_SUCCESS;
        lt_matmul_verify_end(x->c, x->s, x->g, plan, snapshot, *ran);
        if (!*ran)
            why = TF_R_lt_rejected_call;
    }
    lt_fold_release(&fc);
    return why;
}

static int invoke(void *ctx)
{
    return lt_matmul_invoke(((const consume_ctx *)ctx)->c);
}

static cublasStatus_t consume(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_gemm *g)
{
    consume_ctx ctx = { c, s, g };
    pl_consumer con = { .g = g, .folded = try_folded, .invoke = invoke, .ctx = &ctx };
    return (cublasStatus_t)pl_consume(&con);
}

static cublasStatus_t watched(const lt_matmul_call *c)
{
    const lt_matmul_shadow *s = NULL;
    const tf_gemm *g = NULL;
    switch (lt_matmul_describe(c, &s, &g)) {
    case LT_INVALID:
        return lt_matmul_invoke(c);
    case LT_UNKNOWN:
        pl_note_materialize_all(TF_STREAM(c->stream), TF_WHY(lt_matmul_unreadable));
        return lt_matmul_invoke(c);
    case LT_DESCRIBED:
        break;
    }
    return s->form.empty ? lt_matmul_invoke(c) : consume(c, s, g);
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void *alpha, const void *A,
                              cublasLtMatrixLayout_t Adesc, const void *B, cublasLtMatrixLayout_t Bdesc,
                              const void *beta, const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo, void *workspace,
                              size_t workspaceSizeInBytes, cudaStream_t stream)
{
    TF_REAL_OR(cublasLtMatmul, TF_MISSING_CUBLASLT);
    if (!pl_consumer_watching_undeferred())
        return TF_PASS(real(handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo, workspace,
                            workspaceSizeInBytes, stream));
    lt_matmul_call c = { .handle = handle, .desc = desc, .alpha = alpha, .beta = beta,
                         .ptr = { A, B, C, D }, .lay = { Adesc, Bdesc, Cdesc, Ddesc }, .algo = algo,
                         .workspace = workspace, .workspace_size = workspaceSizeInBytes, .stream = stream };
    return watched(&c);
}

/* Verify mode for folded cublasLtMatmul calls: the program's own call,
 * reading replayed copies of the records it would have read and writing
 * the scratch copy of D (see gemm_verify.h). When C is D the scratch copy
 * holds D's old values, so it is C as well. Epilogue outputs (aux, bias
 * gradients) are written a second time, with the same values when the
 * fold is right. */
static int unfolded(void *ctx, const pl_relocation *r)
{
    lt_matmul_call b = *(const lt_matmul_call *)ctx;
    for (int i = 0; i < 2; i++)
        b.ptr[i] = pl_relocated(r, i, b.ptr[i]);
    if (b.ptr[LT_C] == b.ptr[LT_D])
        b.ptr[LT_C] = (const void *)(uintptr_t)r->c_to;
    b.ptr[LT_D] = (const void *)(uintptr_t)r->c_to;
    return lt_matmul_invoke(&b);
}

void *lt_matmul_verify_begin(const tf_gemm *g)
{
    return pl_verify_enabled() ? pl_verify_start(g) : NULL;
}

void lt_matmul_verify_end(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_gemm *g,
                          const tf_plan *plan, void *snapshot, bool ran)
{
    if (!snapshot)
        return;
    if (ran)
        pl_verify_gemm(g, plan, pl_cuda_dtype_name(s->l[LT_D].type), snapshot, unfolded, (void *)c);
    else
        pl_verify_drop(snapshot);
}
