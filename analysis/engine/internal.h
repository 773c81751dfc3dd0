/* The engine's private state, shared by its source files and nothing else. */
#ifndef TF_INTERNAL_H
#define TF_INTERNAL_H
#include <stdint.h>
#include <string.h>

/* Every key of the engine's tables is one uint64_t (an id or an address):
 * a multiplicative hash spreads them well and costs a fraction of uthash's
 * default, which every lookup on the fold path pays. */
#define HASH_FUNCTION(keyptr, keylen, hashv)                              \
    do {                                                                  \
        uint64_t tf_k_;                                                   \
        memcpy(&tf_k_, (keyptr), sizeof tf_k_);                           \
        (hashv) = (unsigned)((tf_k_ * 0x9E3779B97F4A7C15ull) >> 32);      \
        (void)(keylen);                                                   \
    } while (0)
#include <uthash.h>

#include "engine.h"
#include "index/itree.h"
#include "index/pool.h"
#include "index/umap.h"

typedef enum rec_state { REC_PENDING, REC_MATERIALIZED, REC_DROPPED } rec_state;

typedef struct tf_record {
    uint64_t id;
    tf_transpose_desc d;
    tf_range src_fp, dst_fp;
    tf_range src_alloc, dst_alloc; /* the allocations holding them (args policy) */
    tf_replay replay;
    /* A deferred GEMM (gemm_defer.c), not a transpose: d.dst is its output,
     * d.src a range spanning its operands; never folded onto. Set only
     * there: its operands, and its replay issued transposed. */
    bool gemm;
    tf_range gemm_in[3]; /* A, B and the workspace it runs with (empty: none of the program's) */
    int64_t gemm_k;
    tf_run_transposed run_transposed;
    tf_snapshot_operand snapshot;
    /* Log mode (held.c): its source's free would have been held, so
     * nothing touches the source from then on; out of the source index. */
    bool src_frozen;
    rec_state state;
    int folds;
    /* Bytes of the destination a later write owns (holes.c): never copied
     * back when the record runs; unsorted, not merged, inside dst_fp. */
    int nholes;
    /* Slots promised by effects_before to writes whose holes
     * effects_after records once the call succeeded (a failed call's
     * promise is never kept: a slot lost, never a wrong hole). */
    int holes_promised;
    tf_range holes[TF_MAX_HOLES];
    UT_hash_handle hh;
    tf_inode by_src, by_dst; /* in the engine's src and dst indexes (tie: id) */
    char *heap;    /* d's strings when they do not fit in text */
    char text[96]; /* d's strings, copied (API names fit); last: not cleared on reuse */
} tf_record;

struct tf_granule;
typedef struct tf_alloc_entry {
    uint64_t base, size; /* base first: a pooled entry's link overlays it */
    tf_mem_kind kind;
    int level;           /* its size class in the page map (allocs.c) */
    struct { struct tf_alloc_entry *next, *prev; struct tf_granule *g; } link[2];
} tf_alloc_entry;

/* Counters behind the exit summary. Refusals are counted by a short key. */
#define TF_MAX_REASONS 24
typedef struct tf_counts {
    uint64_t seen, deferred, never_run, materialized, refused, folded;
    uint64_t bytes_saved, launches_saved, fallbacks, verified, verify_mismatches, replays_failed;
    uint64_t learn_candidates, learn_trusted, learn_rejected;
    uint64_t gemms_deferred, output_folds, gemms_run, gemms_dropped; /* gemm_defer.c */
    uint64_t frees_held; /* held.c */
    const char *reason_key[TF_MAX_REASONS];
    uint64_t reason_n[TF_MAX_REASONS];
} tf_counts;

/* What each per-call path costs, n being the number of entries:
 * - pending: by id, O(1); walked whole only where every record may be acted
 *   on (strict policy, exit, capture, graph launch, handle destroyed).
 * - pend_src, pend_dst: the pending records by source and destination
 *   footprint (itree.h); a call's reads and writes find the records they
 *   touch in O(log n) each (plus O(log n) per record found), O(1) when they
 *   miss every footprint's span; a record that lives only a few calls is
 *   added and removed in O(1) (the index's nursery), others in O(log n).
 * - src_bound, dst_bound: O(1) to check before a search and to grow.
 * - allocs, granules: the live allocations by base and by address (a page
 *   map of two umap.h tables, allocs.c); every lookup is O(1) expected in
 *   the number of allocations.
 * - late: one mark per stream with a late read outstanding (late_merge
 *   re-records a stream's mark rather than adding one), walked by each
 *   access while there is any: O(streams with work in flight), and empty
 *   once their events complete.
 * - learn (learn_internal.h): signatures by hash, O(1); a fixed ring.
 * - pools (records, allocation entries, granules; pool.h) and spare late
 *   marks: O(1) to take or give.
 * Kernels seen, rule signatures, streams and threads index nothing here:
 * the preload keeps names by handle and rule matches by name (names.c,
 * O(1)), stream ids are computed (stream_id.c) and per-thread state is
 * thread-local.
 * Nothing on the per-call paths walks a whole table. */
struct tf_engine {
    tf_config cfg;
    tf_record *pending; /* uthash by id: PENDING records and the anchor */
    /* Never pending (id 0): uthash frees a table whose last entry leaves and
     * the next add allocates and clears a new one, which a program with one
     * transpose in flight at a time would pay on every record. */
    tf_record pending_anchor;
    size_t npending;
    /* The record made last, while it is pending (else NULL): the one a
     * consumer's end most often looks up again, found without hashing. */
    tf_record *newest;
    tf_itree pend_src, pend_dst;
    /* Ranges holding every pending record's source (destination)
     * footprint: grown by each record made (transpose.c), reset to the
     * only record when it is the only one, never shrunk in between. A
     * range outside them overlaps no record, and is not searched for. */
    tf_range src_bound, dst_bound;
    uint64_t next_id;
    tf_umap allocs;               /* entries by base */
    tf_umap granules;             /* granules by size class and address */
    uint32_t levels_used[64];     /* allocations per size class */
    tf_pool alloc_pool, granule_pool; /* their entries and granules */
    struct tf_granule *empty_granules[2]; /* listed granules left empty (allocs.c) */
    /* Moves on whenever an allocation is added, resized or taken out
     * (allocs.c): an answer of alloc_find stays right while it has not. */
    uint64_t alloc_gen;
    /* tf_transpose_begin's last lookups of a source [0] and a destination
     * [1] (transpose.c); zeroed, they answer what a map never given an
     * allocation would: none. */
    struct tf_alloc_seen { uint64_t gen; tf_range r; const tf_alloc_entry *a; } alloc_seen[2];
    tf_pool rec_pool;   /* every record */
    tf_counts n;
    struct tf_late *late; /* late.c */
    size_t nlate;
    struct tf_late *late_spare; /* ended ones kept for reuse: as many as were ever live at once */
    bool log_write_failed, summary_write_failed; /* said once on stderr */
    struct tf_learn *learn; /* NULL unless learning (learn.c) */
    /* Frees held for pending GEMMs (held.c): few at once (each GEMM's
     * operands and workspace until its transpose comes), walked whole. */
    tf_held_free *held;
    size_t nheld, held_cap;
    uint64_t held_bytes;
    bool exiting; /* tf_engine_free: held frees are forgotten, not made */
    bool held_walking; /* tf_holds_return: the list is not changed under it */
};

/* records.c */
/* src_alloc, dst_alloc: the allocations holding d's source and destination. */
/* fp: d's source and destination footprints, which the caller has at hand;
 * alloc: the allocations holding them. */
tf_record *rec_create(tf_engine *e, const tf_transpose_desc *d, const tf_replay *r, const tf_range fp[2],
                      const tf_range alloc[2]);
/* trigger NULL: the reason's text (a forced materialisation names no call). */
void rec_materialize(tf_engine *e, tf_record *p, uint64_t trigger_stream, const tf_why *why, const char *trigger);
void rec_drop(tf_engine *e, tf_record *p, const tf_why *why);
/* Device traffic a transpose costs (read and write of its destination's
 * size); inline, so that the log can say it without calling back here. */
static inline uint64_t rec_bytes(const tf_record *p)
{
    return 2 * tf_view_bytes(&p->d.dst);
}
void rec_discard(tf_engine *e, tf_record *p); /* forget without a verdict */
void rec_free_spares(tf_engine *e); /* every record's memory: after the last has left */
void rec_init(tf_engine *e);  /* the pending table, with its anchor */
void rec_fini(tf_engine *e);  /* after every record has left */
tf_record *rec_find(tf_engine *e, uint64_t id); /* a pending record, or NULL */
/* gemm_defer.c: a transpose of a deferred GEMM's whole output becomes that
 * GEMM issued transposed into its destination (true: done, replay
 * released); false: the ordinary path. */
bool output_fold_try(tf_engine *e, const tf_transpose_desc *d, const tf_range fp[2], const tf_replay *replay);
/* The engine's bounds take in the footprints of the record just made
 * (a transpose or a deferred GEMM): they alone when no other is pending.
 * Inline: both makers are on the producer's hot path. */
static inline void bound_grow(tf_engine *e, const tf_range fp[2])
{
    bool only = e->npending == 1;
    if (only) {
        e->src_bound = fp[0];
        e->dst_bound = fp[1];
        return;
    }
    if (fp[0].lo < e->src_bound.lo) e->src_bound.lo = fp[0].lo;
    if (fp[0].hi > e->src_bound.hi) e->src_bound.hi = fp[0].hi;
    if (fp[1].lo < e->dst_bound.lo) e->dst_bound.lo = fp[1].lo;
    if (fp[1].hi > e->dst_bound.hi) e->dst_bound.hi = fp[1].hi;
}
/* Whether r touches what a deferred GEMM reads (its operands) or
 * scribbles on (its workspace), rather than only lying in the span its
 * record is indexed by. */
static inline bool gemm_touches(const tf_record *p, tf_range r)
{
    return tf_range_overlaps(r, p->gemm_in[0]) || tf_range_overlaps(r, p->gemm_in[1]) ||
           tf_range_overlaps(r, p->gemm_in[2]);
}
/* Every pending record; the body may act on (and free) p. */
#define REC_EACH_PENDING(e, p, tmp) \
    HASH_ITER(hh, (e)->pending, p, tmp) if ((p) != &(e)->pending_anchor)
/* The next pending record after *at whose source (or destination)
 * footprint overlaps r; a walk may act on (and free) what it is given. */
static inline tf_record *rec_next_src(tf_engine *e, tf_range r, tf_icursor *at)
{
    tf_inode *n = itree_next_overlap(&e->pend_src, r.lo, r.hi, at);
    return n ? TF_CONTAINER(n, tf_record, by_src) : NULL;
}
static inline tf_record *rec_next_dst(tf_engine *e, tf_range r, tf_icursor *at)
{
    tf_inode *n = itree_next_overlap(&e->pend_dst, r.lo, r.hi, at);
    return n ? TF_CONTAINER(n, tf_record, by_dst) : NULL;
}

/* engine.c: a free of the allocation ar: records reading it run first
 * (dst false; with `hold`, not the GEMMs held_by it), records writing into
 * it die with it (dst true, once the free is made or held). */
void free_effect(tf_engine *e, tf_range ar, bool dst, uint64_t stream, const char *api, bool hold);
/* held_list.c: the frees held (held.c holds them and gives them back).
 * held_release_unused: a record left or a GEMM stopped reading its
 * operands (copied aside): frees no pending record reads any more are
 * made. held_still_read: whether a pending record still reads r for a free
 * on `stream`. held_push: one more (false: no memory for it). */
void held_release_unused(tf_engine *e);
bool held_still_read(tf_engine *e, tf_range r, uint64_t stream);
bool held_push(tf_engine *e, const tf_held_free *f);
/* Whether a free of `ar` on `stream` leaves p, a record reading it whose
 * replay runs on that stream, pending (held) rather than running it. */
static inline bool held_by(const tf_record *p, tf_range ar, uint64_t stream)
{
    return p->d.stream == stream && !tf_range_overlaps(ar, p->dst_fp) &&
           (p->gemm ? gemm_touches(p, ar) : tf_range_overlaps(ar, p->src_fp));
}
void held_clear(tf_engine *e);

/* late.c: a record that was read late has ended; before an access or a
 * free, order it after late reads it could race with; at exit, forget. */
void late_note(tf_engine *e, const tf_record *p, bool replayed);
void late_order(tf_engine *e, const tf_access *a);
void late_order_free(tf_engine *e, tf_range r, uint64_t stream);
void late_clear(tf_engine *e);

/* allocs.c */
const tf_alloc_entry *alloc_find(const tf_engine *e, tf_range r);
tf_alloc_entry *alloc_at(const tf_engine *e, uint64_t base);
void alloc_add(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind);
tf_alloc_entry *alloc_take(tf_engine *e, uint64_t base);
void alloc_release(tf_engine *e, tf_alloc_entry *a); /* after alloc_take */
void alloc_clear(tf_engine *e);

/* learn.c */
void learn_alloc(tf_engine *e, uint64_t base, uint64_t size);
void learn_free(tf_engine *e);

/* Whether r may overlap a footprint inside `bound` (tf_range_overlaps's
 * test: whatever overlaps a footprint overlaps the bound). */
static inline bool bound_may_overlap(tf_range bound, tf_range r)
{
    return tf_range_overlaps(bound, r);
}

/* effects.c */
/* The records an access's write covers whole: effects_before leaves them
 * pending (effects_after drops them once the call succeeded) and, when
 * given a list, notes them there, so that effects_drop_kept can drop them
 * without searching again as long as no record left or arrived in between
 * (no other engine call). `complete` is false when the list cannot stand
 * for the search (more writes than one, an unknown access, overflow). */
#define TF_MAX_KEPT 4
typedef struct tf_kept { tf_record *p[TF_MAX_KEPT]; int n; bool complete; } tf_kept;
void effects_before(tf_engine *e, const tf_access *a, tf_kept *kept); /* kept may be NULL */
void effects_after(tf_engine *e, const tf_access *a);
void effects_drop_kept(tf_engine *e, const tf_access *a, const tf_kept *kept);

/* holes.c */
/* Whether r touches p's destination only inside its holes (or not at all):
 * then it is none of p's business. */
bool holes_within(const tf_record *p, tf_range r);
bool holes_overlap(const tf_record *p, tf_range r);
/* Before a call: whether the write w over part of p's destination may
 * become a hole instead of running p (a slot is then promised to it). */
bool holes_promise(const tf_engine *e, tf_record *p, const tf_view *w);
/* After the call succeeded: the promised hole is recorded (true), or
 * none was promised (false). */
bool holes_keep(tf_record *p, const tf_view *w);
/* Whether p's holes cover every byte of its destination's footprint. */
bool holes_cover_all(const tf_record *p);
/* rec_materialize for a record with holes: the replay's status. */
int holes_fill(tf_engine *e, tf_record *p, uint64_t trigger_stream);

/* log.c */
void log_transpose(tf_engine *e, const tf_record *p);
void log_gemm_deferred(tf_engine *e, const tf_record *p, const tf_gemm *g);
void log_free_held(tf_engine *e, const tf_held_free *f, const char *api);
void log_output_fold(tf_engine *e, const tf_record *gemm, const tf_transpose_desc *t, long long copied);
/* groups: the calls a two-level fold was split into (tf_rewrite), else 0. */
void log_fold(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, tf_op to, int64_t groups);
/* Reasons are formatted (tf_why_text) only when the log is open: nothing
 * else reads the text, and formatting is most of a drop's cost. */
void log_materialize(tf_engine *e, const tf_record *p, const tf_why *why, const char *trigger, int status);
void log_drop(tf_engine *e, const tf_record *p, const tf_why *why);
void log_refuse_transpose(tf_engine *e, const tf_transpose_desc *d, const tf_why *why);
void log_refuse_operand(tf_engine *e, const tf_record *p, const tf_gemm *g, int operand, const tf_why *why);
void count_refusal(tf_engine *e, tf_reason key);
void summary_write(tf_engine *e);
/* write_check.c: flushes f; the first failure is said on stderr. */
void write_check(FILE *f, const char *var, bool *reported);

#endif
