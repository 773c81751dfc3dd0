/* Producer and consumer steps: see hook_steps.h. The engine is locked only
 * around its own calls, never across the library's. */
#include <string.h>

#include "hook_steps.h"
#include "state.h"

int tf_produce(const tf_producer *p)
{
    const char *refuse = p->refuse;
    tf_replay rp = refuse ? (tf_replay){0} : p->make_replay(p->ctx);
    if (!refuse && !rp.run)
        refuse = p->no_replay;
    tf_access extra; /* only a refused producer needs it */
    if (refuse)
        extra = p->access(p->ctx);
    tf_engine *e = tf_lock();
    if (refuse && e)
        tf_access_begin(e, &extra);
    bool deferred = e && tf_transpose_begin(e, p->desc, rp, refuse);
    if (!e && rp.release)
        rp.release(rp.arg);
    tf_unlock(e);
    if (deferred)
        return 0;
    int st = p->invoke(p->ctx);
    e = tf_lock();
    if (e) {
        tf_transpose_end(e, p->desc, st == 0);
        if (refuse)
            tf_access_end(e, &extra, st == 0);
    }
    tf_unlock(e);
    return st;
}

/* An operand counts when the engine found its record: in log mode the
 * rewrite is described but not marked folded. */
static bool planned(const tf_gemm *g, const tf_plan *plan)
{
    for (int i = 0; i < g->nin; i++)
        if (plan->in[i].record)
            return true;
    return false;
}

int tf_consume(const tf_consumer *c)
{
    tf_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.alpha_mul = 1.0;
    tf_engine *e = tf_lock();
    if (e)
        tf_gemm_begin(e, c->g, &plan);
    tf_unlock(e);
    int st = 0;
    bool ran = false;
    const char *why = planned(c->g, &plan) ? c->folded(c->ctx, &plan, &st, &ran) : NULL;
    if (why) {
        e = tf_lock();
        if (e)
            tf_gemm_fallback(e, c->g, &plan, why);
        tf_unlock(e);
    }
    if (!ran)
        st = c->invoke(c->ctx);
    e = tf_lock();
    if (e)
        tf_gemm_end(e, c->g, &plan, st == 0);
    tf_unlock(e);
    return st;
}
