/* Consumers: a GEMM-like call whose operands may read pending transposes.
 * Order matters: first everything that must run before the call (writes into
 * a source, partial overwrites, non-operand reads), then the folds onto what
 * is still pending, so a fold never relies on a record this call invalidates. */
#include <string.h>

#include "algebra/algebra.h"
#include "engine/internal.h"
#include "learn/learn.h"

/* Pending destinations do not overlap one another (a write overlapping one
 * runs or drops it) except inside holes (holes.c), so the first found
 * whose bytes the operand reads outside its holes is the only one. */
static tf_record *record_under(tf_engine *e, const tf_view *v)
{
    tf_icursor at = ITREE_START;
    tf_range r = tf_view_footprint(v);
    if (!bound_may_overlap(e->dst_bound, r))
        return NULL;
    tf_record *p;
    while ((p = rec_next_dst(e, r, &at)) && p->nholes && holes_within(p, r))
        ;
    return p;
}

static void plan_reset(tf_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->alpha_mul = 1.0;
}

/* What the first pass found an operand may fold onto: the second pass
 * reuses the verdict when the same record is still there (records do not
 * change while pending, so neither would the verdict). */
typedef struct operand_fit {
    tf_record *p; /* NULL: none */
    uint64_t id;
    tf_rewrite rw;
    double alpha;
} operand_fit;

/* First pass: an operand that reads a record's destination but cannot fold
 * onto it makes the record run now. Done for every operand before any fold,
 * so no operand is rewritten onto a record another operand replays. Returns
 * whether a record ran (and so left the pending table). */
static bool refuse_operand(tf_engine *e, const tf_gemm *g, int i, operand_fit *fit)
{
    tf_record *p;
    fold_verdict v;
    bool ran = false;
    while ((p = record_under(e, &g->in[i].v)) &&
           ((p->nholes && holes_overlap(p, tf_view_footprint(&g->in[i].v))) || __builtin_expect(p->gemm, 0) ||
            !fold_operand(&p->d, &g->in[i], g, &v))) {
        if (p->nholes && holes_overlap(p, tf_view_footprint(&g->in[i].v))) {
            /* part of what it reads is a later write's: the record runs
             * (copying back the rest) and the operand reads memory */
            tf_why why = TF_WHY(dst_partly_overwritten, .str = {g->acc.api});
            rec_materialize(e, p, g->acc.stream, &why, g->acc.api);
            ran = true;
            continue;
        }
        if (p->gemm) { /* a deferred GEMM's output: it runs first */
            tf_why why = TF_WHY(gemm_output_read, .str = {g->acc.api, g->in[i].role});
            rec_materialize(e, p, g->acc.stream, &why, g->acc.api);
            ran = true;
            continue;
        }
        log_refuse_operand(e, p, g, i, &v.why);
        char text[128];
        const char *refusal = e->cfg.log ? tf_why_text(&v.why, text, sizeof text) : "";
        tf_why why = TF_WHY(operand_refused, .cause = v.why.key, .str = {g->acc.api, g->in[i].role, refusal});
        rec_materialize(e, p, g->acc.stream, &why, g->acc.api);
        ran = true;
    }
    fit->p = p;
    if (p)
        fit->id = p->id, fit->rw = v.rw, fit->alpha = v.alpha;
    return ran;
}

/* Both operands split into calls, but not into the same number: B's
 * record runs (one call cannot be cut two ways). */
static bool refuse_other_groups(tf_engine *e, const tf_gemm *g, operand_fit fit[2])
{
    int64_t ga = fit[0].p ? fit[0].rw.groups : 0, gb = fit[1].p ? fit[1].rw.groups : 0;
    if (ga < 2 || gb < 2 || ga == gb || fit[0].p == fit[1].p)
        return false;
    tf_why cause = TF_WHY(batch_stride, .num = {g->in[1].v.stride, fit[1].p->d.dst.stride});
    log_refuse_operand(e, fit[1].p, g, 1, &cause);
    tf_why why = TF_WHY(operand_refused, .cause = cause.key, .str = {g->acc.api, g->in[1].role, "split otherwise"});
    rec_materialize(e, fit[1].p, g->acc.stream, &why, g->acc.api);
    fit[1].p = NULL;
    return true;
}

/* Second pass: what is still under an operand is a record it folds onto.
 * `same`: no record left the table in the first pass and none was added,
 * so what is under the operand is what the first pass found there (the
 * search is not repeated). */
static void fold_onto(tf_engine *e, const tf_gemm *g, int i, const operand_fit *fit, bool same, tf_plan *plan)
{
    tf_record *p = same ? fit->p : record_under(e, &g->in[i].v);
    fold_verdict v;
    if (!p || (p->nholes && holes_overlap(p, tf_view_footprint(&g->in[i].v))))
        return;
    if (fit->p && p->id == fit->id)
        v.rw = fit->rw, v.alpha = fit->alpha;
    else if (!fold_operand(&p->d, &g->in[i], g, &v))
        return;
    plan->in[i] = v.rw;
    plan->in[i].record = p->id;
    plan->alpha_mul *= v.alpha;
    if (v.rw.groups > plan->groups)
        plan->groups = v.rw.groups;
    if (e->cfg.mode == TF_MODE_FOLD)
        plan->any = true;
    else
        plan->in[i].folded = false; /* log mode: say it, change nothing */
}

void tf_gemm_begin(tf_engine *e, const tf_gemm *g, tf_plan *plan)
{
    plan_reset(plan);
    if (e->late)
        late_order(e, &g->acc);
    learn_gemm(e, g);
    /* Ids grow with every record made (records.c), so an unchanged next
     * id at the end means no record was made meanwhile. */
    plan->out_mark = e->next_id;
    plan->out_clear = e->npending == 0;
    if (e->npending == 0)
        return;
    tf_kept under_out; /* a single write: every record under it ran or is listed */
    effects_before(e, &g->acc, &under_out);
    plan->out_clear = under_out.complete && under_out.n == 0;
    operand_fit fit[2];
    bool ran = false;
    for (int i = 0; i < g->nin; i++)
        ran |= refuse_operand(e, g, i, &fit[i]);
    if (g->nin == 2)
        ran |= refuse_other_groups(e, g, fit);
    for (int i = 0; i < g->nin; i++)
        fold_onto(e, g, i, &fit[i], !ran, plan);
}

static tf_record *find(tf_engine *e, uint64_t id)
{
    return rec_find(e, id);
}

void tf_gemm_fallback(tf_engine *e, const tf_gemm *g, tf_plan *plan, tf_reason why)
{
    e->n.fallbacks++;
    for (int i = 0; i < g->nin; i++) {
        tf_record *p = plan->in[i].record ? find(e, plan->in[i].record) : NULL;
        if (!p)
            continue;
        tf_why reason = TF_WHY(library_rejected, .cause = why, .str = {g->acc.api, tf_reason_text(why)});
        log_refuse_operand(e, p, g, i, &reason);
        rec_materialize(e, p, g->acc.stream, &reason, g->acc.api);
    }
    plan_reset(plan);
}

void tf_gemm_end(tf_engine *e, const tf_gemm *g, const tf_plan *plan, bool ok)
{
    if (!ok)
        return;
    for (int i = 0; i < g->nin; i++) {
        tf_record *p = plan->in[i].record ? find(e, plan->in[i].record) : NULL;
        if (!p)
            continue;
        tf_op to;
        fold_op_for(&p->d, g, g->in[i].op, &to);
        p->folds++;
        e->n.folded++;
        log_fold(e, p, g, i, to, plan->in[i].groups);
    }
    if (e->npending && !(plan->out_clear && plan->out_mark == e->next_id))
        effects_after(e, &g->acc);
}
