/* Learning's state machine: SEEN -> CANDIDATE (a GEMM read what it wrote)
 * -> TRUSTED (K measured launches proven to be the transpose the GEMM
 * needed) or REJECTED (any check failed: for the rest of the process). */
#include <stdlib.h>
#include <string.h>

#include "learn/learn_internal.h"

void tf_learn_setup(tf_engine *e, const tf_learn_knobs *k)
{
    if (e->learn || !(e->learn = calloc(1, sizeof *e->learn)))
        return;
    e->learn->knobs = *k;
    e->learn->lo = UINT64_MAX;
}

bool tf_learn_on(const tf_engine *e)
{
    return e->learn != NULL;
}

void learn_alloc(tf_engine *e, uint64_t base, uint64_t size)
{
    tf_learn *t = e->learn;
    if (!t)
        return;
    t->lo = base < t->lo ? base : t->lo;
    t->hi = base + size > t->hi ? base + size : t->hi;
}

void learn_free(tf_engine *e)
{
    if (!e->learn)
        return;
    sig_free_all(e->learn);
    free(e->learn);
    e->learn = NULL;
}

/* Keeps t->open: whether a remembered launch's signature is unjudged. At
 * most LEARN_RING entries, walked only when the ring or a state changes. */
static void open_refresh(tf_learn *t)
{
    t->open = false;
    for (unsigned n = 0; n < LEARN_RING && n < t->ring_next; n++)
        t->open |= t->ring[n].sig->state == SIG_SEEN;
}

/* Every change of a signature's state goes through here, so t->open stays
 * true to the ring. */
static void set_state(tf_learn *t, learn_sig *s, sig_state state)
{
    bool was_seen = s->state == SIG_SEEN;
    s->state = state;
    if (was_seen != (state == SIG_SEEN))
        open_refresh(t);
}

static void reject(tf_engine *e, learn_sig *s, tf_reason why)
{
    if (s->state == SIG_CANDIDATE)
        e->learn->ncandidates--;
    set_state(e->learn, s, SIG_REJECTED);
    e->n.learn_rejected++;
    log_learn(e, s, "rejected", why);
}

/* What the measurement snapshots: each pointer's allocation, once. */
static tf_reason plan_for(tf_engine *e, const learn_sig *s, const learn_seen *seen, tf_learn_plan *plan)
{
    uint64_t total = 0;
    *plan = (tf_learn_plan){ .sig = s->hash, .out = -1 };
    for (int i = 0; i < seen->nptr; i++) {
        const tf_alloc_entry *a = alloc_find(e, (tf_range){ seen->ptr[i], seen->ptr[i] + 1 });
        if (!a || (a->kind != TF_MEM_DEVICE && a->kind != TF_MEM_POOL))
            return TF_R_learn_foreign_memory;
        tf_range r = { a->base, a->base + a->size };
        int k = 0;
        while (k < plan->nreach && plan->reach[k].lo != r.lo)
            k++;
        if (k == plan->nreach) {
            plan->reach[plan->nreach++] = r;
            total += a->size;
        }
        if (seen->off[i] == s->out_off)
            plan->out = k;
    }
    if (plan->out < 0)
        return TF_R_learn_output_moved;
    if (total > e->learn->knobs.max_bytes)
        return TF_R_learn_cap_bytes;
    return TF_R_NONE;
}

tf_learn_action tf_learn_launch_begin(tf_engine *e, const tf_learn_launch *l, tf_learn_plan *plan)
{
    tf_learn *t = e->learn;
    learn_seen seen;
    learn_sig *s = t ? sig_of(e, l, &seen) : NULL;
    if (!s)
        return TF_LEARN_RUN;
    seen.sig = s;
    t->ring[t->ring_next++ % LEARN_RING] = seen;
    open_refresh(t);
    s->last_use = ++t->clock;
    plan->sig = s->hash;
    if (s->state == SIG_TRUSTED)
        return TF_LEARN_PRODUCE;
    if (s->state != SIG_CANDIDATE)
        return TF_LEARN_RUN;
    tf_reason why = plan_for(e, s, &seen, plan);
    if (why) {
        reject(e, s, why);
        return TF_LEARN_RUN;
    }
    return TF_LEARN_MEASURE;
}

/* At the cap, the candidate launched longest ago and not yet measured goes
 * back to unjudged (a shape that never recurs must not hold a place). */
static bool evict_idle_candidate(tf_engine *e)
{
    learn_sig *s, *tmp, *idle = NULL;
    HASH_ITER(hh, e->learn->sigs, s, tmp) {
        if (s->state == SIG_CANDIDATE && s->verified == 0 && (!idle || s->last_use < idle->last_use))
            idle = s;
    }
    if (!idle || idle->last_use + LEARN_IDLE > e->learn->clock)
        return false;
    set_state(e->learn, idle, SIG_SEEN);
    e->learn->ncandidates--;
    log_learn(e, idle, "evicted", TF_R_learn_evicted);
    return true;
}

static void make_candidate(tf_engine *e, learn_sig *s, const tf_operand *op, uint64_t ptr, size_t off)
{
    tf_learn *t = e->learn;
    if (t->ncandidates >= t->knobs.max_candidates && !evict_idle_candidate(e)) {
        if (!t->cand_cap_logged)
            log_learn(e, s, "cap", TF_R_learn_cap_candidates);
        t->cand_cap_logged = true;
        return;
    }
    set_state(t, s, SIG_CANDIDATE);
    s->out_off = off;
    s->out_delta = (int64_t)(op->v.addr - ptr);
    s->view = op->v;
    s->view.addr = 0;
    s->last_use = t->clock;
    t->ncandidates++;
    e->n.learn_candidates++;
    log_learn(e, s, "candidate", TF_R_NONE);
}

/* The newest remembered launch pointing into the operand's allocation. */
static void candidate_for(tf_engine *e, const tf_operand *op)
{
    tf_learn *t = e->learn;
    const tf_alloc_entry *a = alloc_find(e, tf_view_footprint(&op->v));
    for (unsigned n = 0; a && n < LEARN_RING && n < t->ring_next; n++) {
        learn_seen *w = &t->ring[(t->ring_next - 1 - n) % LEARN_RING];
        for (int i = 0; i < w->nptr; i++) {
            if (w->ptr[i] < a->base || w->ptr[i] >= a->base + a->size)
                continue;
            if (w->sig->state == SIG_SEEN)
                make_candidate(e, w->sig, op, w->ptr[i], w->off[i]);
            return;
        }
    }
    if (a && t->knobs.note_recent) /* its writer was not noted: look closer next time */
        t->knobs.note_recent();
}

bool tf_learn_open(const tf_engine *e)
{
    return e->learn && e->learn->open;
}

/* Whether note_recent, called now, would note anything. */
static bool note_would_act(const tf_learn *t)
{
    return t->knobs.note_recent && (!t->knobs.recent_unnoted || t->knobs.recent_unnoted());
}

/* Out of line, so that the test in learn_gemm saves no registers. */
static __attribute__((noinline)) void learn_operands(tf_engine *e, const tf_gemm *g)
{
    for (int i = 0; i < g->nin; i++)
        candidate_for(e, &g->in[i]);
}

/* With no remembered launch unjudged, candidate_for makes no candidate
 * (the writer it finds is judged already) and at most calls note_recent:
 * when that would note nothing either, the operands are not looked up. */
void learn_gemm(tf_engine *e, const tf_gemm *g)
{
    tf_learn *t = e->learn;
    if (t && (t->open || note_would_act(t)))
        learn_operands(e, g);
}

static uint64_t slot(const tf_learn_launch *l, size_t off)
{
    uint64_t v = 0;
    if (off + 8 <= l->len)
        memcpy(&v, l->params + off, 8);
    return v;
}

/* Scalars of the launch that could be a source's ld or batch stride. */
static int scalars(const learn_sig *s, int64_t *out, int cap)
{
    int n = 0;
    for (size_t off = 0; off + 4 <= s->len && n < cap; off += 4) {
        if (s->mask[off / 512] >> (off / 8 % 64) & 1)
            continue;
        int32_t v;
        memcpy(&v, s->bytes + off, 4);
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup |= out[i] == v;
        if (v > 1 && !dup)
            out[n++] = v;
    }
    return n;
}

/* The proof's findings must agree across measurements and name exactly two
 * buffers: a third one the kernel reaches could steer what it writes. */
static tf_reason accept(const learn_sig *s, const tf_learn_plan *plan, const tf_view *src, size_t in_off,
                          const tf_learn_launch *l)
{
    if (s->verified && (in_off != s->in_off || src->ld != s->src.ld || src->stride != s->src.stride))
        return TF_R_learn_source_changed;
    uint64_t in = slot(l, in_off);
    for (int k = 0; k < plan->nreach; k++)
        if (k != plan->out && !(in >= plan->reach[k].lo && in < plan->reach[k].hi))
            return TF_R_learn_third_buffer;
    return TF_R_NONE;
}

void tf_learn_measured(tf_engine *e, const tf_learn_launch *l, const tf_learn_plan *plan, const tf_learn_obs *o)
{
    learn_sig *s = e->learn ? sig_find(e, plan->sig) : NULL;
    if (!s || s->state != SIG_CANDIDATE)
        return;
    learn_seen seen;
    seen.nptr = 0;
    for (size_t off = 0; off + 8 <= l->len && seen.nptr < TF_LEARN_MAX_PTRS; off += 8)
        if (s->mask[off / 512] >> (off / 8 % 64) & 1)
            seen.ptr[seen.nptr] = slot(l, off), seen.off[seen.nptr++] = off;
    int64_t lds[16];
    tf_view view = s->view, src;
    view.addr = slot(l, s->out_off) + (uint64_t)s->out_delta;
    tf_proof_in in = { plan->reach, plan->nreach, plan->out, o, view, seen.ptr, seen.nptr, lds, scalars(s, lds, 16) };
    int t = -1;
    tf_reason why = tf_learn_prove(&in, &src, &t);
    if (!why)
        why = accept(s, plan, &src, seen.off[t], l);
    if (why) {
        reject(e, s, why);
        return;
    }
    s->in_off = seen.off[t];
    s->src = src;
    s->src.addr = 0;
    s->verified++;
    log_learn(e, s, "verified", TF_R_NONE);
    if (s->verified >= e->learn->knobs.k) {
        set_state(e->learn, s, SIG_TRUSTED);
        e->learn->ncandidates--;
        e->n.learn_trusted++;
        log_learn(e, s, "trusted", TF_R_NONE);
    }
}

static bool same_shape(const tf_view *a, const tf_view *b)
{
    return a->elem == b->elem && a->rows == b->rows && a->cols == b->cols && a->ld == b->ld && a->batch == b->batch;
}

void tf_learn_distrust(tf_engine *e, uint64_t record, tf_reason why)
{
    tf_record *p = NULL;
    learn_sig *s, *tmp;
    if (e->learn)
        p = rec_find(e, record);
    if (!p)
        return;
    HASH_ITER(hh, e->learn->sigs, s, tmp) {
        if (s->state == SIG_TRUSTED && strcmp(s->name, p->d.name) == 0 && same_shape(&s->view, &p->d.dst) &&
            same_shape(&s->src, &p->d.src))
            reject(e, s, why);
    }
}

static const char *dtype_of(uint32_t elem)
{
    static const char *const names[] = { "bytes", "8-bit", "16-bit", "bytes", "32-bit", "bytes", "bytes", "bytes",
                                         "64-bit" };
    return elem < 9 ? names[elem] : elem == 16 ? "128-bit" : "bytes";
}

bool tf_learn_describe(tf_engine *e, const tf_learn_launch *l, tf_transpose_desc *d)
{
    learn_seen seen;
    learn_sig *s = e->learn ? sig_of(e, l, &seen) : NULL;
    if (!s || s->state != SIG_TRUSTED)
        return false;
    *d = (tf_transpose_desc){ .producer = "kernel", .name = l->name, .dtype = dtype_of(s->view.elem),
                              .src = s->src, .dst = s->view, .alpha = { 1.0, 0.0, true } };
    d->src.addr = slot(l, s->in_off);
    d->dst.addr = slot(l, s->out_off) + (uint64_t)s->out_delta;
    return true;
}

int tf_learn_each_trusted(const tf_engine *e, void (*fn)(const tf_learned *t, void *arg), void *arg)
{
    int n = 0;
    const learn_sig *s, *tmp;
    if (!e->learn)
        return 0;
    HASH_ITER(hh, e->learn->sigs, s, tmp) {
        if (s->state != SIG_TRUSTED)
            continue;
        tf_learned t = { s->fn, s->module, s->name, { s->grid[0], s->grid[1], s->grid[2] },
                         { s->block[0], s->block[1], s->block[2] }, s->bytes, s->mask, s->len, s->in_off,
                         s->out_off, 0, s->out_delta, s->src, s->view };
        fn(&t, arg);
        n++;
    }
    return n;
}
