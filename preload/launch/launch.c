/* What a kernel launch means to pending records.
 *
 * A launch whose device name matches a kernel rule is a transpose producer:
 * the rule reads its operands and shape out of the parameter bytes, and the
 * launch itself, deep-copied, is the replay. Any other launch issued at
 * depth 0 is an unknown access: `strict` materialises everything pending,
 * `args` whatever its parameter bytes point into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls/describe.h"
#include "tables/hooks.h"
#include "launch/launch.h"
#include "launch/launch_internal.h"
#include "learn/learn.h"
#include "launch/names.h"
#include "streams/replay.h"
#include "rules/rules.h"
#include "core/state.h"

enum { LAUNCH_SKIP, LAUNCH_UNKNOWN, LAUNCH_PRODUCER };

pl_launch_learn_fn pl_launch_learn;

bool layout_from_route(const pl_launch *l, param_layout *p)
{
    p->n = 0;
    p->len = 0;
    if (!l->param_info)
        return false;
    while (p->n < TF_MAX_PARAMS && l->param_info(l->fn, p->n, &p->off[p->n], &p->size[p->n]) == 0) {
        size_t end = p->off[p->n] + p->size[p->n];
        p->len = end > p->len ? end : p->len;
        p->n++;
    }
    return p->n > 0;
}

/* A rule's sig= when the driver cannot tell: the C ABI's natural alignment. */
static bool layout_from_sig(const tf_rule *r, param_layout *p)
{
    int n = 0;
    const size_t *sig = r ? tf_rule_sig(r, &n) : NULL;
    if (!sig || n <= 0 || n > TF_MAX_PARAMS)
        return false;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        size_t align = sig[i] >= 8 ? 8 : sig[i] >= 4 ? 4 : sig[i] >= 2 ? 2 : 1;
        at = (at + align - 1) / align * align;
        p->off[i] = at;
        p->size[i] = sig[i];
        at += sig[i];
    }
    p->n = n;
    p->len = at;
    return true;
}

/* The parameter bytes, packed as the kernel sees them. */
unsigned char *launch_pack(const pl_launch *l, const param_layout *p)
{
    unsigned char *b = calloc(1, p->len ? p->len : 1);
    if (!b)
        return NULL;
    if (!l->args) {
        memcpy(b, l->packed, p->len < l->packed_len ? p->len : l->packed_len);
        return b;
    }
    for (int i = 0; i < p->n; i++)
        if (l->args[i])
            memcpy(b + p->off[i], l->args[i], p->size[i]);
    return b;
}

static int relaunch(void *arg)
{
    pl_launch_replay *r = arg;
    return r->relaunch(r);
}

/* The launch on stream id `stream`, in its context; with `trigger`, that
 * stream is then ordered after it. The legacy stream is passed as
 * cudaStreamLegacy: 0 would mean per-thread at a _ptsz route. */
int launch_issue(pl_launch_replay *r, uint64_t stream, const uint64_t *trigger)
{
    uint64_t on = pl_stream_arg(stream);
    r->on = on ? on : TF_ADDR(cudaStreamLegacy);
    return pl_replay_issue((pl_place){ -1, r->ctx }, stream, trigger, relaunch, r);
}

static int launch_replay_run(void *arg, uint64_t trigger)
{
    pl_launch_replay *r = arg;
    return launch_issue(r, r->stream, &trigger);
}

/* The same launch writing elsewhere: every pointer-sized parameter value
 * equal to the output address is moved, at any byte offset (a packed
 * struct parameter may hold it), the same scan as the args policy's. When
 * none is found the launch would write the real buffer: it is not issued. */
typedef struct retarget { pl_launch_replay *r; uint64_t to; int moved; } retarget;

static bool retarget_word(uint64_t v, size_t off, void *ctx)
{
    retarget *t = ctx;
    if (v == t->r->dst) {
        memcpy(t->r->bytes + off, &t->to, sizeof t->to);
        t->moved++;
    }
    return false;
}

static int launch_replay_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    pl_launch_replay *r = arg;
    unsigned char *saved = malloc(r->bytes_len);
    if (!saved)
        return -1;
    memcpy(saved, r->bytes, r->bytes_len);
    retarget t = { r, dst, 0 };
    tf_scan_words(saved, r->bytes_len, retarget_word, &t);
    int st = t.moved ? launch_issue(r, stream, NULL) : -1;
    memcpy(r->bytes, saved, r->bytes_len);
    free(saved);
    return st;
}

/* One allocation: the replay, the argument pointers, the bytes, the
 * attributes. `release` is plain free. */
tf_replay launch_replay_new(const pl_launch *l, const param_layout *p, const unsigned char *bytes,
                                   uint64_t dst)
{
    size_t head = sizeof(pl_launch_replay), ptrs = (size_t)p->n * sizeof(void *);
    size_t attrs = l->nattrs * l->attr_size;
    pl_launch_replay *r = calloc(1, head + ptrs + p->len + attrs + 16);
    if (!r)
        return (tf_replay){0};
    unsigned char *store = (unsigned char *)r + head;
    void **args = (void **)store;
    unsigned char *copy = store + ptrs;
    copy += (16 - (uintptr_t)copy % 16) % 16; /* parameters keep their alignment */
    memcpy(copy, bytes, p->len);
    for (int i = 0; i < p->n; i++)
        args[i] = copy + p->off[i];
    *r = (pl_launch_replay){ .relaunch = l->relaunch, .fn = l->fn, .shared_mem = l->shared_mem,
                             .stream = l->stream, .args = args, .nattrs = l->nattrs,
                             .ctx = pl_context_current(), .dst = dst, .bytes = copy,
                             .bytes_len = p->len };
    memcpy(r->grid, l->grid, sizeof r->grid);
    memcpy(r->block, l->block, sizeof r->block);
    if (attrs) {
        memcpy(copy + p->len, l->attrs, attrs);
        r->attrs = copy + p->len;
    }
    return (tf_replay){ .run = launch_replay_run, .release = free, .arg = r, .run_to = launch_replay_run_to };
}

/* l->desc, described, becomes a producer: deferred (true in *deferred), or
 * (refused, log mode) run and reported. False when the engine is gone. */
bool launch_produce(pl_launch *l, const param_layout *p, const unsigned char *bytes, bool *deferred)
{
    l->desc.stream = l->stream;
    l->desc.ctx = (uint64_t)(uintptr_t)pl_context_current();
    tf_replay rp = launch_replay_new(l, p, bytes, l->desc.dst.addr);
    tf_engine *e = pl_lock();
    *deferred = e && rp.run && tf_transpose_begin(e, &l->desc, rp, TF_WHY_KEY(TF_R_NONE));
    if ((!e || !rp.run) && rp.release)
        rp.release(rp.arg);
    pl_unlock(e);
    return e && rp.run;
}

/* A recognised transpose: deferred, or (refused, log mode) run and
 * reported. False, with l->why, when the rule cannot describe this launch.
 * RULE_EFFECT: an effect=writes rule described it (l->acc, l->known). */
enum { RULE_REFUSED, RULE_PRODUCER, RULE_NONE, RULE_EFFECT };

/* A launch must be able to write all of what its rule declares. */
static bool covers(pl_launch *l, const tf_rule *rule)
{
    uint64_t threads = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
    uint64_t elements = (uint64_t)l->desc.dst.rows * (uint64_t)l->desc.dst.cols * (uint64_t)l->desc.dst.batch;
    if (tf_rule_covers(rule, threads, elements))
        return true;
    l->why = TF_WHY(launch_coverage, .num = {(long long)threads, (long long)elements});
    return false;
}

/* An effect=writes rule's access: its footprint written, the allocations
 * of its reads= pointers read; false when a pointer is in none. */
static bool rule_effect(pl_launch *l, const tf_rule *rule, void *const *ptrs, const param_layout *p)
{
    uint64_t reads[TF_RULE_MAX_READS];
    int nreads = 0;
    tf_view w;
    tf_reason why;
    if (!tf_rule_effect(rule, ptrs, p->size, p->n, &w, reads, &nreads, &why))
        return false;
    tf_access_init(&l->acc, l->name ? l->name : l->api, l->stream);
    tf_access_write(&l->acc, w);
    tf_engine *e = pl_lock();
    bool ok = e != NULL;
    for (int i = 0; ok && i < nreads; i++) {
        tf_range r;
        ok = tf_alloc_span(e, reads[i], &r);
        tf_access_read(&l->acc, r);
    }
    pl_unlock(e);
    return ok;
}

/* The rule (from `rule` on) whose guards hold, describing this launch. */
static int begin_producer(pl_launch *l, const tf_rule *rule, bool *deferred)
{
    param_layout *p = malloc(sizeof *p);
    unsigned char *bytes = NULL;
    void *ptrs[TF_MAX_PARAMS];
    bool ok = p && (layout_from_route(l, p) || layout_from_sig(rule, p)) && (l->args || l->packed);
    l->why = TF_WHY(launch_layout);
    if (ok && (bytes = launch_pack(l, p)))
        for (int i = 0; i < p->n; i++)
            ptrs[i] = bytes + p->off[i];
    if (bytes)
        rule = tf_rules_match_launch(pl_state_rules(), rule, l->name, pl_module_get(l->fn), ptrs, p->size, p->n);
    int kind = bytes && !rule ? RULE_NONE : RULE_REFUSED;
    if (rule && bytes && tf_rule_is_effect(rule)) {
        uint64_t threads = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2] * l->block[0] * l->block[1] * l->block[2];
        l->known = rule_effect(l, rule, ptrs, p);
        /* it writes all of its footprint only with the threads it was proven with */
        l->known &= tf_rule_covers(rule, threads, (uint64_t)l->acc.writes[0].rows * (uint64_t)l->acc.writes[0].cols *
                                                      (uint64_t)l->acc.writes[0].batch);
        kind = l->known ? RULE_EFFECT : RULE_NONE;
    } else if (rule && bytes && tf_rule_describe(rule, l->name, ptrs, p->size, p->n, &l->desc, &l->why.key) &&
        covers(l, rule) && launch_produce(l, p, bytes, deferred))
        kind = RULE_PRODUCER;
    free(bytes);
    free(p);
    return kind;
}

/* A matched rule that did not fit is logged as a refused transpose with
 * no views; the launch then counts as an unknown access. */
static void refuse_rule(pl_launch *l)
{
    l->desc = (tf_transpose_desc){ .producer = "kernel", .name = l->name, .dtype = "unknown", .stream = l->stream };
    tf_engine *e = pl_lock();
    if (e)
        tf_transpose_begin(e, &l->desc, (tf_replay){0}, l->why);
    pl_unlock(e);
    l->refused = e != NULL;
}

/* The parameter bytes of an unknown launch, for the `args` policy. */
static void gather_params(pl_launch *l)
{
    param_layout *p = malloc(sizeof *p);
    if (p && (l->args ? layout_from_route(l, p) : (p->n = 0, p->len = l->packed_len, l->packed != NULL))) {
        l->params = launch_pack(l, p);
        l->params_len = l->params ? p->len : 0;
    }
    free(p);
}

/* A deferred launch reports success at once, so it must be one the driver
 * would accept: what the driver checks for every kernel (dimensions, the
 * stream) is checked here first; a launch failing it runs as issued and
 * reports its own error. (Per-kernel limits, such as __launch_bounds__ or
 * an opted-in shared memory size, are not known here.) */
bool launch_acceptable(pl_launch *l)
{
    const unsigned *g = l->grid, *b = l->block;
    bool dims = g[0] && g[1] && g[2] && b[0] && b[1] && b[2] && g[0] <= 0x7fffffffu && g[1] <= 65535 &&
                g[2] <= 65535 && b[2] <= 64 && (unsigned long long)b[0] * b[1] * b[2] <= 1024;
    bool stream = pl_stream_usable(l->stream);
    if (!dims || !stream)
        l->why = !dims ? TF_WHY(launch_dims) : TF_WHY(launch_stream);
    return dims && stream;
}

/* The first rule whose glob matches the name: matched against every rule
 * once per name (a rules file may hold a thousand learned rules), then
 * remembered. */
static const tf_rule *rule_for(const tf_rules *rules, const char *name)
{
    static const char no_rule; /* memoised "none" */
    const void *m = pl_name_memo_get(name);
    if (m)
        return m == &no_rule ? NULL : m;
    const tf_rule *r = tf_rules_match(rules, name);
    pl_name_memo_set(name, r ? (const void *)r : &no_rule);
    return r;
}

/* The launch families linked in (launch.h): the first, if any. */
extern const pl_launch_family __start_pl_launch_families[] __attribute__((weak, visibility("hidden")));
extern const pl_launch_family __stop_pl_launch_families[] __attribute__((weak, visibility("hidden")));

const pl_launch_family *pl_launch_family_get(void)
{
    const pl_launch_family *first = __start_pl_launch_families, *end = __stop_pl_launch_families;
    return first != end ? first : NULL;
}

void pl_launch_family_registered(const void *host_fn, const char *name)
{
    const pl_launch_family *f = pl_launch_family_get();
    if (f)
        f->registered(host_fn, name);
}

void pl_launch_family_alias(const void *alias, const void *handle)
{
    const pl_launch_family *f = pl_launch_family_get();
    if (f)
        f->alias(alias, handle);
}

bool pl_launch_begin(pl_launch *l)
{
    const tf_rules *rules = pl_state_rules();
    const tf_rule *rule = rules && l->name ? rule_for(rules, l->name) : NULL;
    bool deferred = false;
    l->kind = LAUNCH_SKIP;
    l->refused = l->known = false;
    bool learn = pl_learning_now && learn_watched(l->fn);
    const pl_launch_family *fam = !rule && atomic_load_explicit(&pl_family_seen_now, memory_order_relaxed)
                                      ? pl_launch_family_get() : NULL;
    const void *kernel = fam ? fam->kernel(l->fn, l->name) : NULL;
    if (!rule && atomic_load(&pl_pending_now) == 0 && !learn && !(kernel && fam->copy(kernel)))
        return false; /* the common case: not even the stream's id is needed */
    l->stream = pl_stream_id(l->raw_stream, l->ptsz_entry);
    switch (kernel ? fam->launch(l, kernel, &deferred) : PL_FAMILY_NONE) {
    case PL_FAMILY_PRODUCER:
        l->kind = LAUNCH_PRODUCER;
        return deferred;
    case PL_FAMILY_QUIET:
        return false;
    case PL_FAMILY_ACCESS: /* exact ranges, under either policy */
        l->kind = LAUNCH_UNKNOWN;
        pl_note_access_begin(&l->acc);
        return false;
    default:
        break;
    }
    if (rule && !launch_acceptable(l))
        rule = (refuse_rule(l), NULL);
    int matched = rule ? begin_producer(l, rule, &deferred) : RULE_NONE;
    if (matched == RULE_PRODUCER) {
        l->kind = LAUNCH_PRODUCER;
        return deferred;
    }
    if (matched == RULE_REFUSED)
        refuse_rule(l);
    else if (matched == RULE_NONE && !l->refused && learn && pl_launch_learn && pl_launch_learn(l, &deferred)) {
        l->kind = LAUNCH_PRODUCER;
        return deferred;
    }
    if (atomic_load(&pl_pending_now) == 0)
        return false;
    l->kind = LAUNCH_UNKNOWN;
    if (l->known) { /* described by what learning measured */
        pl_note_access_begin(&l->acc);
        return false;
    }
    tf_access_init(&l->acc, l->name ? l->name : l->api, l->stream);
    l->acc.unknown = true;
    if (pl_env_now.policy == TF_POLICY_ARGS) {
        gather_params(l);
        l->acc.params = l->params;
        l->acc.params_len = l->params_len;
    }
    pl_note_access_begin(&l->acc);
    return false;
}

void pl_launch_end(pl_launch *l, bool ok)
{
    if (l->kind == LAUNCH_PRODUCER || l->refused) {
        tf_engine *e = pl_lock();
        if (e)
            tf_transpose_end(e, &l->desc, ok);
        pl_unlock(e);
    }
    if (l->kind == LAUNCH_UNKNOWN)
        pl_note_access_end(&l->acc, ok);
    free(l->params);
    l->params = NULL;
}
