/* The steps every producer hook and every consumer hook takes around its
 * real call, written once: the cuBLAS and cuBLASLt hooks differ only in how
 * they describe the call, make its replay, and call the library. Statuses
 * are the library's, 0 meaning success. */
#ifndef TF_HOOK_STEPS_H
#define TF_HOOK_STEPS_H

#include "engine.h"
#include "core/state.h"

/* Inlined into each hook, so the callbacks below are direct calls the
 * compiler can inline in turn: the shared steps cost nothing over steps
 * written out in every hook. The engine is locked only around its own
 * calls, never across the library's. */
#define TF_HOOK_STEP static inline __attribute__((always_inline))

/* A transpose producer: deferred if the engine agrees, else run and
 * reported. `make_replay` runs only when the hook does not refuse; when it
 * cannot copy what the replay needs (run == NULL) the call is refused with
 * `no_replay`. `access` (reads beyond the views) only for a refused call. */
typedef struct pl_producer {
    const tf_transpose_desc *desc;
    tf_reason refuse;
    tf_reason no_replay;
    tf_replay (*make_replay)(void *ctx);
    tf_access (*access)(void *ctx);
    int (*invoke)(void *ctx);
    void *ctx;
    /* make_replay fails only when memory runs out: in log mode, where the
     * engine would release the replay unused, it is not made at all. */
    bool replay_only_allocates;
} pl_producer;

/* A GEMM consumer. When the engine found records for its operands,
 * `folded` makes (or in log mode only checks) the rewritten call: it
 * returns why it cannot, or TF_R_NONE, and sets *ran when that call ran and
 * succeeded (*st its status). Otherwise, after the engine's fallback when
 * there was a reason, `invoke` runs the program's call as it was. */
typedef struct pl_consumer {
    const tf_gemm *g;
    tf_reason (*folded)(void *ctx, const tf_plan *plan, int *st, bool *ran);
    int (*invoke)(void *ctx);
    void *ctx;
} pl_consumer;

TF_HOOK_STEP int pl_produce(const pl_producer *p)
{
    tf_reason refuse = p->refuse;
    /* The engine's mode is the one read from the environment; pl_mode_now
     * is that or off. Read as log, the engine (if still there) is in log
     * mode; read as log while it turns off, pl_lock finds no engine. Either
     * way no replay is wanted. */
    bool unused = p->replay_only_allocates &&
                  atomic_load_explicit(&pl_mode_now, memory_order_relaxed) == TF_MODE_LOG;
    tf_replay rp = refuse || unused ? (tf_replay){0} : p->make_replay(p->ctx);
    if (!refuse && !unused && !rp.run)
        refuse = p->no_replay;
    tf_access extra; /* only a refused producer needs it */
    if (refuse)
        extra = p->access(p->ctx);
    tf_engine *e = pl_lock();
    if (refuse && e)
        tf_access_begin(e, &extra);
    tf_why why; /* only a refused producer needs it */
    if (refuse)
        why = TF_WHY_KEY(refuse);
    bool deferred = e && tf_transpose_begin_ref(e, p->desc, &rp, refuse ? &why : NULL);
    if (!e && rp.release)
        rp.release(rp.arg);
    pl_unlock(e);
    if (deferred)
        return 0;
    int st = p->invoke(p->ctx);
    if (!tf_transpose_end_needed(st == 0))
        return st; /* log mode: its record was made at begin */
    e = pl_lock();
    if (e) {
        tf_transpose_end(e, p->desc, st == 0);
        if (refuse)
            tf_access_end(e, &extra, st == 0);
    }
    pl_unlock(e);
    return st;
}

/* An operand counts when the engine found its record: in log mode the
 * rewrite is described but not marked folded. */
static inline bool pl_planned(const tf_gemm *g, const tf_plan *plan)
{
    if (plan->any)
        return true;
    for (int i = 0; i < g->nin; i++)
        if (plan->in[i].record)
            return true;
    return false;
}

TF_HOOK_STEP int pl_consume(const pl_consumer *c)
{
    tf_plan plan; /* tf_gemm_begin fills all of it */
    tf_engine *e = pl_lock();
    if (e)
        tf_gemm_begin(e, c->g, &plan);
    else
        plan = (tf_plan){ .alpha_mul = 1.0 }; /* as tf_gemm_begin leaves it when nothing folds */
    pl_unlock(e);
    int st = 0;
    bool ran = false;
    tf_reason why = pl_planned(c->g, &plan) ? c->folded(c->ctx, &plan, &st, &ran) : TF_R_NONE;
    if (why) {
        e = pl_lock();
        if (e)
            tf_gemm_fallback(e, c->g, &plan, why);
        pl_unlock(e);
    }
    if (!ran)
        st = c->invoke(c->ctx);
    e = pl_lock();
    if (e)
        tf_gemm_end(e, c->g, &plan, st == 0);
    pl_unlock(e);
    return st;
}

#endif
