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
    fam_free_all(e->learn);
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
    s->effect = false;
    set_state(e->learn, s, SIG_REJECTED);
    e->n.learn_rejected++;
    log_learn(e, s, "rejected", why);
}

static uint64_t slot(const tf_learn_launch *l, size_t off)
{
    uint64_t v = 0;
    if (off + 8 <= l->len)
        memcpy(&v, l->params + off, 8);
    return v;
}

/* Scalars of the launch that could be a source's ld or batch stride (not
 * its pointers, nor the bytes its group saw vary). */
static int scalars(const learn_sig *s, const tf_learn_launch *l, const uint64_t *mask, int64_t *out, int cap)
{
    int n = 0;
    for (size_t off = 0; off + 4 <= l->len && n < cap; off += 4) {
        if (sig_is_ptr(mask, off) || sig_varies(s, off) || sig_varies(s, off + 3))
            continue;
        int32_t v;
        memcpy(&v, l->params + off, 4);
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup |= out[i] == v;
        if (v > 1 && !dup)
            out[n++] = v;
    }
    return n;
}

/* The most bytes a source the proof may try spans (try_source: dense or
 * a scalar's ld and batch stride). */
static uint64_t source_span(const learn_sig *s, const tf_learn_launch *l, const uint64_t *mask)
{
    int64_t lds[16];
    int n = scalars(s, l, mask, lds, 16);
    const tf_view *v = &s->view;
    int64_t ld = v->cols, stride = v->cols * v->rows;
    for (int i = 0; i < n; i++) {
        ld = lds[i] > ld ? lds[i] : ld;
        stride = lds[i] > stride ? lds[i] : stride;
    }
    stride = ld * v->rows > stride ? ld * v->rows : stride;
    return (uint64_t)(((v->batch - 1) * stride + (v->rows - 1) * ld + v->cols) * (int64_t)v->elem);
}

/* The other pointers' regions inside the output's allocation, kept from
 * the sentinel fill, up to the output's view (a source overlapping it is
 * refused anyway: fits()). */
static void plan_keep(const learn_sig *s, const tf_learn_launch *l, const uint64_t *mask, const learn_seen *seen,
                      tf_learn_plan *plan)
{
    tf_range out = plan->reach[plan->out];
    tf_view v = s->view;
    v.addr = slot(l, s->out_off) + (uint64_t)s->out_delta;
    tf_range vf = tf_view_footprint(&v);
    uint64_t span = source_span(s, l, mask);
    for (int i = 0; i < seen->nptr; i++) {
        uint64_t p = seen->ptr[i];
        uint64_t end = p < vf.lo ? vf.lo : out.hi;
        tf_range k = { p, p + span < end && p + span > p ? p + span : end };
        if (seen->off[i] != s->out_off && p >= out.lo && p < out.hi && (p < vf.lo || p >= vf.hi))
            plan->keep[plan->nkeep++] = k;
    }
}

/* What the measurement snapshots: each pointer's allocation, once; the
 * output is where s's output slot points. */
static tf_reason plan_for(tf_engine *e, const learn_sig *s, const tf_learn_launch *l, const learn_seen *seen,
                          tf_learn_plan *plan)
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
    uint64_t mask[LEARN_MASK_WORDS];
    sig_ptr_mask(e->learn, l, mask);
    plan_keep(s, l, mask, seen, plan);
    return TF_R_NONE;
}

/* A launch whose own signature is unjudged, in a family with a candidate
 * or trusted transpose: measured against that group (learn_group.c). */
static tf_learn_action bootstrap(tf_engine *e, const tf_learn_launch *l, learn_sig *own, tf_learn_plan *plan)
{
    uint64_t mask[LEARN_MASK_WORDS];
    learn_seen seen;
    sig_ptr_mask(e->learn, l, mask);
    learn_sig *g = group_for_bootstrap(e, l, mask);
    if (!g || !sig_seen(l, mask, g, &seen) || plan_for(e, g, l, &seen, plan))
        return TF_LEARN_RUN;
    plan->boot = own->hash;
    return TF_LEARN_MEASURE;
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
    plan->boot = 0;
    if (s->state == SIG_TRUSTED)
        return TF_LEARN_PRODUCE;
    if (s->state == SIG_REJECTED && s->effect)
        return TF_LEARN_KNOWN;
    if (s->state == SIG_SEEN && t->fams)
        return bootstrap(e, l, s, plan);
    if (s->state != SIG_CANDIDATE)
        return TF_LEARN_RUN;
    tf_reason why = plan_for(e, s, l, &seen, plan);
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
    fam_add(e, s);
    s->last_use = t->clock;
    t->ncandidates++;
    e->n.learn_candidates++;
    log_learn(e, s, "candidate", TF_R_NONE);
}

/* Which of a launch's pointers is the output's: the one at the operand's
 * address, else the nearest below it by less than the operand's span (a
 * view starting inside what the pointer's buffer would be). Nothing
 * further: a caching allocator's segment holds other tensors too (another
 * operand of the GEMM, say), and a launch pointing elsewhere in it is not
 * their writer. On a tie the last slot wins: a struct's stale bytes (a
 * pointer the stack kept from an earlier tensor at the same address) come
 * before its data pointers in the layouts seen (ATen's closures). -1: none. */
static int out_slot(const learn_seen *w, const tf_view *v)
{
    tf_range fp = tf_view_footprint(v);
    int best = -1;
    for (int i = 0; i < w->nptr; i++) {
        uint64_t p = w->ptr[i];
        if (p <= v->addr && v->addr - p < fp.hi - fp.lo && (best < 0 || p >= w->ptr[best]))
            best = i;
    }
    return best;
}

/* The newest remembered launch with a pointer at the operand (its slot in
 * *slot), or NULL; *known: the operand lies in an allocation transfold saw. */
static learn_seen *writer_of(tf_engine *e, const tf_operand *op, int *slot, bool *known)
{
    tf_learn *t = e->learn;
    *known = alloc_find(e, tf_view_footprint(&op->v)) != NULL;
    for (unsigned n = 0; *known && n < LEARN_RING && n < t->ring_next; n++) {
        learn_seen *w = &t->ring[(t->ring_next - 1 - n) % LEARN_RING];
        if ((*slot = out_slot(w, &op->v)) >= 0)
            return w;
    }
    return NULL;
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

/* Out of line, so that the test in learn_gemm saves no registers. One
 * launch that points at both operands wrote at most one of them: the one
 * at its later slot is taken (a struct's stale pointers, to other tensors
 * the stack remembers, come before its data pointers in ATen's closures). */
static __attribute__((noinline)) void learn_operands(tf_engine *e, const tf_gemm *g)
{
    learn_seen *w[2] = { NULL, NULL };
    int slot[2] = { -1, -1 };
    bool known[2] = { false, false }, noted = false;
    for (int i = 0; i < g->nin && i < 2; i++)
        w[i] = writer_of(e, &g->in[i], &slot[i], &known[i]);
    if (w[0] && w[0] == w[1]) {
        int drop = w[0]->off[slot[0]] < w[1]->off[slot[1]] ? 0 : 1;
        w[drop] = NULL, known[drop] = false;
    }
    for (int i = 0; i < g->nin && i < 2; i++) {
        if (w[i] && w[i]->sig->state == SIG_SEEN)
            make_candidate(e, w[i]->sig, &g->in[i], w[i]->ptr[slot[i]], w[i]->off[slot[i]]);
        else if (!w[i] && known[i] && e->learn->knobs.note_recent && !noted) {
            e->learn->knobs.note_recent(); /* its writer was not noted: look closer next time */
            noted = true;
        }
    }
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

/* A failed proof: the signature measured is rejected (for a bootstrap, the
 * launch's own, not the group's), keeping the footprint as its effect
 * when that much was proven of a launch that reaches at most two
 * allocations, as a trusted transpose does: a pointer into a third one
 * could steer it anywhere (a pointer stored in device memory), and an
 * effect's reads are only the allocations its parameters reach. */
static void measured_wrong(tf_engine *e, learn_sig *s, learn_sig *own, tf_reason why, bool footprint)
{
    learn_sig *r = own ? own : s;
    if (own) {
        own->out_off = s->out_off;
        own->out_delta = s->out_delta;
        own->view = s->view;
        s->fails++;
    }
    reject(e, r, why);
    r->effect = footprint && !r->vary;
}

void tf_learn_measured(tf_engine *e, const tf_learn_launch *l, const tf_learn_plan *plan, const tf_learn_obs *o)
{
    learn_sig *s = e->learn ? sig_find(e, plan->sig) : NULL;
    learn_sig *own = plan->boot ? sig_find(e, plan->boot) : NULL;
    if (!s || (s->state != SIG_CANDIDATE && s->state != SIG_TRUSTED) || (plan->boot && (!own || own->state != SIG_SEEN)) ||
        (!plan->boot && s->state != SIG_CANDIDATE))
        return;
    uint64_t mask[LEARN_MASK_WORDS];
    learn_seen seen;
    sig_ptr_mask(e->learn, l, mask);
    if (!sig_seen(l, mask, s, &seen))
        return;
    int64_t lds[16];
    tf_view view = s->view, src;
    view.addr = slot(l, s->out_off) + (uint64_t)s->out_delta;
    tf_proof_in in = { plan->reach, plan->nreach, plan->out, o, view, seen.ptr, seen.nptr, lds,
                       scalars(s, l, mask, lds, 16), plan->keep, plan->nkeep };
    int t = -1;
    tf_reason why = tf_learn_prove(&in, &src, &t);
    bool footprint = (!why || why == TF_R_learn_not_transpose) && plan->nreach <= 2;
    if (!why)
        why = accept(s, plan, &src, seen.off[t], l);
    if (why) {
        measured_wrong(e, s, own, why, footprint);
        return;
    }
    if (own) { /* the same transpose: the bytes it differs in vary */
        if (!group_merge(s, l, mask))
            return;
        set_state(e->learn, own, SIG_MERGED);
        log_learn(e, own, "merged", TF_R_NONE);
    }
    if (s->state == SIG_TRUSTED)
        return;
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

bool tf_learn_effect(tf_engine *e, const tf_learn_launch *l, tf_access *a)
{
    learn_seen seen;
    learn_sig *s = e->learn ? sig_of(e, l, &seen) : NULL;
    if (!s || s->state != SIG_REJECTED || !s->effect)
        return false;
    tf_view w = s->view;
    w.addr = slot(l, s->out_off) + (uint64_t)s->out_delta;
    for (int i = 0; i < seen.nptr; i++) {
        tf_range r;
        if (!tf_alloc_span(e, seen.ptr[i], &r))
            return false;
        tf_access_read(a, r);
    }
    tf_access_write(a, w);
    return true;
}

static int each_where(const tf_engine *e, bool effects, void (*fn)(const tf_learned *t, void *arg), void *arg)
{
    int n = 0;
    const learn_sig *s, *tmp;
    if (!e->learn)
        return 0;
    HASH_ITER(hh, e->learn->sigs, s, tmp) {
        if (effects ? s->state != SIG_REJECTED || !s->effect : s->state != SIG_TRUSTED)
            continue;
        tf_learned t = { s->fn, s->module, s->name, { s->grid[0], s->grid[1], s->grid[2] },
                         { s->block[0], s->block[1], s->block[2] }, s->bytes, s->mask, s->vary, s->len, s->in_off,
                         s->out_off, 0, s->out_delta, s->src, s->view };
        fn(&t, arg);
        n++;
    }
    return n;
}

int tf_learn_each_trusted(const tf_engine *e, void (*fn)(const tf_learned *t, void *arg), void *arg)
{
    return each_where(e, false, fn, arg);
}

int tf_learn_each_effect(const tf_engine *e, void (*fn)(const tf_learned *t, void *arg), void *arg)
{
    return each_where(e, true, fn, arg);
}
