/* The event log (docs/events.md) and the counters behind the exit summary.
 * One JSON object a line, flushed at once so a crashing host program still
 * leaves a complete log. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine/internal.h"
#include "learn/learn_internal.h"
#include "algebra/verify.h"

typedef struct jline { char buf[1024]; size_t len; } jline;

static void jl_raw(jline *j, const char *fmt, ...)
{
    if (j->len >= sizeof j->buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(j->buf + j->len, sizeof j->buf - j->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        j->len += (size_t)n;
}

static void jl_char(jline *j, char c)
{
    if (j->len + 1 < sizeof j->buf)
        j->buf[j->len++] = c;
    else
        j->len = sizeof j->buf; /* mark truncated */
}

static void jl_str(jline *j, const char *k, const char *v)
{
    jl_raw(j, ",\"%s\":\"", k);
    for (const char *c = v ? v : ""; *c && j->len < sizeof j->buf; c++) {
        if (*c == '"' || *c == '\\')
            jl_char(j, '\\');
        if ((unsigned char)*c < 0x20)
            jl_raw(j, "\\u%04x", *c);
        else
            jl_char(j, *c);
    }
    jl_char(j, '"');
}

static void jl_int(jline *j, const char *k, long long v)
{
    jl_raw(j, ",\"%s\":%lld", k, v);
}

static void jl_begin(tf_engine *e, jline *j, const char *event)
{
    j->len = 0;
    jl_raw(j, "{\"event\":\"%s\"", event);
    jl_str(j, "mode", e->cfg.mode == TF_MODE_LOG ? "log" : "fold");
}

static void jl_end(tf_engine *e, jline *j)
{
    if (!e->cfg.log)
        return;
    jl_raw(j, "}\n");
    if (j->len >= sizeof j->buf) /* truncated: never emit broken JSON */
        return;
    fputs(j->buf, e->cfg.log);
    write_check(e->cfg.log, "TRANSFOLD_LOG", &e->log_write_failed);
}

/* The members every reason adds: key, the old coarse class (for tools that
 * matched on it before keys existed; refusals only, where it was "key"),
 * the text, and the key of a wrapped reason. */
static void jl_why(jline *j, const tf_why *w, bool with_class)
{
    char text[256];
    jl_str(j, "key", tf_reason_key(w->key));
    if (with_class)
        jl_str(j, "class", tf_reason_class(w->key));
    jl_str(j, "reason", tf_why_text(w, text, sizeof text));
    if (w->cause)
        jl_str(j, "cause", tf_reason_key(w->cause));
}

static const char *tf_op_name(tf_op op)
{
    return op == TF_OP_N ? "N" : op == TF_OP_T ? "T" : "C";
}

static void jl_shape(jline *j, const tf_transpose_desc *d)
{
    jl_str(j, "producer", d->producer);
    jl_str(j, "name", d->name);
    jl_str(j, "dtype", d->dtype);
    jl_int(j, "rows", d->dst.rows);
    jl_int(j, "cols", d->dst.cols);
    jl_int(j, "batch", d->dst.batch);
    jl_int(j, "bytes", (long long)(2 * tf_view_bytes(&d->dst)));
}

/* The start every event about one record shares. */
static void jl_record(tf_engine *e, jline *j, const char *event, const tf_record *p)
{
    jl_begin(e, j, event);
    jl_int(j, "id", (long long)p->id);
    jl_shape(j, &p->d);
}

void log_transpose(tf_engine *e, const tf_record *p)
{
    if (!e->cfg.log)
        return;
    jline j;
    jl_record(e, &j, "transpose", p);
    jl_raw(&j, ",\"stream\":\"0x%" PRIx64 "\"", p->d.stream);
    jl_end(e, &j);
}

void log_gemm_deferred(tf_engine *e, const tf_record *p, const tf_gemm *g)
{
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "gemm_deferred");
    jl_int(&j, "id", (long long)p->id);
    jl_str(&j, "api", g->acc.api);
    jl_int(&j, "m", g->m);
    jl_int(&j, "n", g->n);
    jl_int(&j, "k", g->k);
    jl_str(&j, "dtype", g->dtype);
    jl_raw(&j, ",\"stream\":\"0x%" PRIx64 "\"", p->d.stream);
    jl_end(e, &j);
}

void log_free_held(tf_engine *e, const tf_held_free *f, const char *api)
{
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "free_held");
    jl_str(&j, "api", api);
    jl_int(&j, "bytes", (long long)f->bytes);
    jl_raw(&j, ",\"stream\":\"0x%" PRIx64 "\"", f->stream);
    jl_end(e, &j);
}

void log_output_fold(tf_engine *e, const tf_record *gemm, const tf_transpose_desc *t, long long copied)
{
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "output_fold");
    jl_int(&j, "id", (long long)gemm->id);
    jl_str(&j, "gemm", gemm->d.producer);
    jl_str(&j, "producer", t->producer);
    jl_str(&j, "name", t->name);
    jl_int(&j, "rows", t->dst.rows);
    jl_int(&j, "cols", t->dst.cols);
    jl_int(&j, "bytes", (long long)(2 * tf_view_bytes(&t->dst)));
    if (copied)
        jl_int(&j, "operand_copied", copied);
    jl_end(e, &j);
}

/* The line itself, out of line: its buffer made the check before it
 * cost a large stack frame on every call without a log. */
static __attribute__((noinline)) void write_fold(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand,
                                                 tf_op to, int64_t groups)
{
    jline j;
    jl_begin(e, &j, "fold");
    jl_int(&j, "id", (long long)p->id);
    jl_str(&j, "producer", p->d.producer);
    jl_str(&j, "name", p->d.name);
    jl_str(&j, "consumer", g->acc.api);
    jl_str(&j, "operand", g->in[operand].role);
    jl_str(&j, "op_from", tf_op_name(g->in[operand].op));
    jl_str(&j, "op_to", tf_op_name(to));
    jl_int(&j, "m", g->m);
    jl_int(&j, "n", g->n);
    jl_int(&j, "k", g->k);
    jl_str(&j, "dtype", g->dtype);
    jl_int(&j, "bytes", (long long)rec_bytes(p));
    if (groups > 1)
        jl_int(&j, "groups", groups);
    jl_end(e, &j);
}

void log_fold(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, tf_op to, int64_t groups)
{
    if (e->cfg.log)
        write_fold(e, p, g, operand, to, groups);
}

/* Out of line, as write_fold. */
static __attribute__((noinline)) void write_materialize(tf_engine *e, const tf_record *p, const tf_why *why,
                                                        const char *trigger, int status)
{
    jline j;
    char text[256];
    /* A deferred GEMM that ran is no transpose materialized: its own name,
     * so that counts of materialized transposes stay what they say. */
    jl_record(e, &j, p->gemm ? "gemm_run" : "materialize", p);
    jl_why(&j, why, false);
    jl_str(&j, "trigger", trigger ? trigger : tf_why_text(why, text, sizeof text));
    jl_int(&j, "folds", p->folds);
    if (p->nholes) /* only the bytes outside them were copied back (holes.c) */
        jl_int(&j, "holes", p->nholes);
    if (status) /* the replay itself failed: the destination may be stale */
        jl_int(&j, "replay_status", status);
    jl_end(e, &j);
}

void log_materialize(tf_engine *e, const tf_record *p, const tf_why *why, const char *trigger, int status)
{
    if (e->cfg.log)
        write_materialize(e, p, why, trigger, status);
}

/* Out of line, as write_fold. */
static __attribute__((noinline)) void write_drop(tf_engine *e, const tf_record *p, const tf_why *why)
{
    jline j;
    jl_record(e, &j, p->gemm ? "gemm_drop" : "drop", p);
    jl_why(&j, why, false);
    jl_int(&j, "folds", p->folds);
    if (p->nholes)
        jl_int(&j, "holes", p->nholes);
    jl_int(&j, "launches", 1);
    jl_end(e, &j);
}

void log_drop(tf_engine *e, const tf_record *p, const tf_why *why)
{
    if (e->cfg.log)
        write_drop(e, p, why);
}

void log_learn(tf_engine *e, const learn_sig *s, const char *what, tf_reason reason)
{
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "learn");
    jl_str(&j, "what", what);
    if (s) {
        jl_str(&j, "name", s->name);
        jl_raw(&j, ",\"sig\":\"%016" PRIx64 "\"", s->hash);
        jl_int(&j, "rows", s->view.rows);
        jl_int(&j, "cols", s->view.cols);
        jl_int(&j, "batch", s->view.batch);
        jl_int(&j, "elem", s->view.elem);
        jl_int(&j, "verified", s->verified);
        jl_int(&j, "k", e->learn->knobs.k);
    }
    if (reason)
        jl_why(&j, &TF_WHY_KEY(reason), false);
    jl_end(e, &j);
}

/* Counted by class, so the summary reads as it did before keys. */
void count_refusal(tf_engine *e, tf_reason reason)
{
    const char *key = reason ? tf_reason_class(reason) : "?";
    tf_counts *n = &e->n;
    n->refused++;
    for (int i = 0; i < TF_MAX_REASONS; i++) {
        if (!n->reason_key[i])
            n->reason_key[i] = key;
        if (strcmp(n->reason_key[i], key) == 0) {
            n->reason_n[i]++;
            return;
        }
    }
}

void log_refuse_transpose(tf_engine *e, const tf_transpose_desc *d, const tf_why *why)
{
    count_refusal(e, why->key);
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "refuse");
    jl_str(&j, "what", "transpose");
    jl_shape(&j, d);
    jl_why(&j, why, true);
    jl_end(e, &j);
}

void log_refuse_operand(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, const tf_why *why)
{
    count_refusal(e, why->key);
    if (!e->cfg.log)
        return;
    jline j;
    jl_begin(e, &j, "refuse");
    jl_str(&j, "what", "operand");
    jl_int(&j, "id", (long long)p->id);
    jl_shape(&j, &p->d);
    jl_str(&j, "consumer", g->acc.api);
    jl_str(&j, "operand", g->in[operand].role);
    jl_why(&j, why, true);
    jl_end(e, &j);
}

/* The members every verify event starts with. */
static void verify_preamble(tf_engine *e, jline *j, const tf_gemm *g, const char *result)
{
    jl_begin(e, j, "verify");
    jl_str(j, "consumer", g->acc.api);
    jl_str(j, "dtype", g->dtype);
    jl_int(j, "m", g->m);
    jl_int(j, "n", g->n);
    jl_int(j, "k", g->k);
    jl_str(j, "result", result);
    if (g->nin == 0) /* gemm_defer.c's check of an output fold */
        jl_str(j, "fold", "output");
}

void tf_verify_skipped(tf_engine *e, const tf_gemm *g, tf_reason reason)
{
    jline j;
    verify_preamble(e, &j, g, "skipped");
    jl_why(&j, &TF_WHY_KEY(reason), false);
    jl_end(e, &j);
}

void tf_verify_report(tf_engine *e, const tf_gemm *g, const tf_verify_result *r)
{
    e->n.verified++;
    if (!r->equal)
        e->n.verify_mismatches++;
    jline j;
    verify_preamble(e, &j, g, r->equal ? "equal" : "MISMATCH");
    if (!r->equal) {
        jl_int(&j, "mismatches", r->mismatches);
        jl_int(&j, "row", r->worst_i);
        jl_int(&j, "col", r->worst_j);
        jl_raw(&j, ",\"folded\":%.17g,\"unfolded\":%.17g,\"max_err\":%.17g,\"tol\":%.17g", r->folded,
               r->unfolded, r->max_err, r->tol);
    }
    jl_end(e, &j);
    if (!r->equal && e->cfg.summary) /* loud: a wrong fold is a bug in transfold */
        fprintf(e->cfg.summary, "transfold: VERIFY MISMATCH in %s (m=%lld n=%lld k=%lld): %lld elements differ, "
                "worst at (%lld,%lld): folded %.9g, unfolded %.9g; the unfolded result was kept\n",
                g->acc.api, (long long)g->m, (long long)g->n, (long long)g->k, (long long)r->mismatches,
                (long long)r->worst_i, (long long)r->worst_j, r->folded, r->unfolded);
    if (!r->equal && e->cfg.summary)
        write_check(e->cfg.summary, "TRANSFOLD_SUMMARY", &e->summary_write_failed);
}
