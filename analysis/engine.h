/* The fold engine: the one place that decides what happens to transposes.
 *
 * Hooks describe each intercepted call as plain data (views, ranges, ops),
 * ask the engine, do what it says, and report the outcome. The engine never
 * calls CUDA; the only way it reaches the device is the replay closure a hook
 * hands it with each deferred transpose.
 *
 * Not thread-safe: the preload serialises calls with one mutex. Every call
 * pattern is  begin -> (hook runs the real function) -> end(ok), so that an
 * effect that must only follow a successful call (dropping a record whose
 * destination was overwritten) never happens when the call failed.
 */
#ifndef TF_ENGINE_H
#define TF_ENGINE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reasons.h"
#include "view.h"

typedef enum tf_mode { TF_MODE_FOLD, TF_MODE_LOG, TF_MODE_OFF } tf_mode;
typedef enum tf_policy { TF_POLICY_STRICT, TF_POLICY_ARGS } tf_policy;
typedef enum tf_op { TF_OP_N, TF_OP_T, TF_OP_C } tf_op;
/* Which transpose scales fold into a GEMM's alpha: exactly 1 only (bitwise
 * exact for all data), or also +-2^k (exact except where a product
 * overflows or becomes subnormal, and -1 flips the sign of zero results). */
typedef enum tf_scales { TF_SCALES_EXACT, TF_SCALES_POW2 } tf_scales;
typedef enum tf_mem_kind { TF_MEM_DEVICE, TF_MEM_POOL, TF_MEM_MANAGED, TF_MEM_HOST, TF_MEM_OTHER } tf_mem_kind;

/* Marks in stream order (events, to the hooks), for the late reads of a
 * record's source once it has ended (late.c): `mark` one after everything
 * `stream` has so far (NULL if it cannot), whether it is known `done`,
 * make `stream` `wait` for it, `release` it. All NULL: not tracked.
 * `capturing`: whether a stream is being captured (a transpose issued
 * there is not deferred); NULL: never. `remark`: move a mark to after
 * everything `stream` has now (false if it cannot); NULL: new marks. */
typedef struct tf_sync_ops {
    void *(*mark)(void *ctx, uint64_t stream);
    bool (*done)(void *ctx, void *mark);
    void (*wait)(void *ctx, void *mark, uint64_t stream);
    void (*release)(void *ctx, void *mark);
    void *ctx;
    bool (*capturing)(void *ctx, uint64_t stream);
    bool (*remark)(void *ctx, void *mark, uint64_t stream);
} tf_sync_ops;

/* How to reproduce a deferred producer exactly. `run` issues the original
 * call on its own stream and, when trigger_stream differs, orders
 * trigger_stream after it. `release` frees the deep-copied arguments; it is
 * called once, after run or when the record is dropped. */
typedef struct tf_replay {
    int (*run)(void *arg, uint64_t trigger_stream);
    void (*release)(void *arg);
    void *arg;
    /* Optional (verify mode): issue the same producer, writing into the
     * scratch destination `dst` (laid out like the original) instead. */
    int (*run_to)(void *arg, uint64_t dst, uint64_t stream);
} tf_replay;


/* A scale factor; `host` is false when the value lives in device memory and
 * so cannot be read or folded. */
typedef struct tf_scale { double re, im; bool host; } tf_scale;


/* A deferred GEMM's replay issued with operands swapped and op flags
 * flipped, writing its output transposed at `dst` (leading dimension ld,
 * batch stride `stride` in elements) on `stream`: (AB)^T = B^T A^T.
 * Non-zero when it cannot. (Apart from tf_replay, which every producer
 * copies.) */
typedef int (*tf_run_transposed)(void *arg, uint64_t dst, int64_t ld, int64_t stride, uint64_t stream);
/* A deferred GEMM's operand (0: A, 1: B), the bytes `from`, copied on
 * `stream` into memory the replay owns and reads from then on (*to: where
 * the copy begins; freed with the replay). Lets an output fold write where
 * the operand lay: PyTorch's caching allocator hands a freed operand's
 * bytes to the next tensor, often the transpose's destination. Non-zero
 * when it cannot; NULL where the replay has no such copy. */
typedef int (*tf_snapshot_operand)(void *arg, int operand, tf_range from, uint64_t stream, uint64_t *to);
typedef struct tf_gemm_replay_ops {
    tf_run_transposed run_transposed;
    tf_snapshot_operand snapshot;
} tf_gemm_replay_ops;

/* The producer name of ATen's copies (preload/aten), one string for the
 * engine and the preload. */
extern const char TF_PRODUCER_ATEN[];

/* A recognised transpose: dst(i,j) = alpha * op(src(j,i)) for every batch. */
typedef struct tf_transpose_desc {
    const char *producer; /* API or "kernel" */
    const char *name;     /* kernel device name, else the API name */
    const char *dtype;    /* "f32", "c64", "bf16", ... (for the log) */
    tf_view src, dst;
    bool conj;            /* conjugate transpose */
    bool complex_type;
    tf_scale alpha;
    uint64_t stream, ctx, handle; /* handle: library handle the replay needs, or 0 */
    /* producer, name and dtype are set and live as long as the program
     * (literals, static tables): a record keeps the pointers instead of
     * copying the strings. */
    bool static_strings;
} tf_transpose_desc;

/* Holes (holes.c): a write over part of a pending record's destination
 * leaves the record pending with those bytes as holes, when `fill` is
 * given, `eligible` (NULL: every producer) accepts the producer and it has
 * a run_to. `fill` materialises such a record: replay `r` (run_to) into
 * scratch memory laid out like d's destination footprint, copy back only
 * the `n` surviving byte ranges `keep` (sorted, inside the footprint),
 * free the scratch, all in stream order on d->stream, and order
 * trigger_stream after the copies; non-zero when it could not. NULL:
 * every partial overwrite materialises first, as before. */
/* Holes a pending record keeps; one more partial overwrite runs it. */
#define TF_MAX_HOLES 8
typedef struct tf_hole_ops {
    int (*fill)(void *ctx, const tf_replay *r, const tf_transpose_desc *d, const tf_range *keep, int n,
                uint64_t trigger_stream);
    bool (*eligible)(void *ctx, const tf_transpose_desc *d);
    void *ctx;
} tf_hole_ops;

/* Verify mode's check of an output fold (gemm_defer.c), set by the
 * preload: after the GEMM ran swapped into t's destination, the GEMM runs
 * as called (into its output, as the unfolded program does) and the
 * transpose into scratch; *r compares the two (the unfolded result is
 * copied over the destination when they differ), elements of `dtype`.
 * false: not checked. */
struct tf_verify_result;
typedef bool (*tf_verify_output_fold)(const tf_replay *gemm, const tf_replay *t, const tf_transpose_desc *td,
                                      const char *dtype, int64_t k, struct tf_verify_result *r);

/* Held frees (held.c): a stream-ordered free of memory that a pending
 * record (a deferred GEMM's operands or workspace, a transpose's source)
 * replayed on the same stream still reads is not made at once; the memory
 * stays the record's until it leaves (it ran, died, or a GEMM's operands
 * were copied aside), and `release` then makes the free on that stream,
 * after the replay. Without it, such a free runs the record first
 * (src_freed): under PyTorch's cudaMallocAsync backend that is every
 * weight-gradient GEMM, whose inputs and 32 MiB cuBLAS workspace are freed
 * before AccumulateGrad's transposing copy reads its output. The engine
 * keeps the tf_held_free it was given and hands it back to `release`.
 * NULL release: never held. */
typedef struct tf_held_free {
    uint64_t base, bytes, stream;
    void *ctx; /* the preload's: where it was made (a driver context) */
} tf_held_free;
typedef struct tf_hold_ops {
    void (*release)(void *ctx, const tf_held_free *f);
    void *ctx;
    /* Bytes held at most at once; a free beyond it runs its records. */
    uint64_t max_bytes;
} tf_hold_ops;

typedef struct tf_config {
    tf_mode mode;
    tf_policy policy;
    FILE *log;     /* JSON-lines event log, or NULL */
    FILE *summary; /* exit summary, or NULL */
    bool verify;
    tf_sync_ops sync;
    tf_scales scales;
    /* Output-side folding (on unless TRANSFOLD_OUTPUT_FOLD=0): GEMMs are deferred
     * until their output's first reader; a transpose of the whole output
     * makes the GEMM write it transposed instead (gemm_defer.c). */
    bool output_fold;
    tf_verify_output_fold verify_output_fold; /* NULL: no output fold under verify */
    tf_hole_ops holes;
    tf_hold_ops hold;
} tf_config;

/* Everything a call reads and writes that is not a foldable GEMM operand.
 * Writes are views so "writes all of D" can be decided exactly. */
#define TF_MAX_RANGES 8
typedef struct tf_access {
    const char *api;
    uint64_t stream;
    tf_range reads[TF_MAX_RANGES];
    int nreads;
    tf_view writes[TF_MAX_RANGES];
    int nwrites;
    bool unknown;           /* may touch memory we cannot enumerate */
    /* Bit i: writes[i] may leave gaps (a strided write not proven dense),
     * so it is a "may write" of its footprint: records whose source or
     * destination it overlaps run first, and it never drops one. Beside
     * the flags, so that one store clears all three and one test reads it
     * with `unknown`. */
    uint8_t maywrite;
    bool overflow;          /* more ranges than TF_MAX_RANGES: materialize everything, whatever the policy */
    const void *params;     /* parameter bytes of an unknown launch (args policy) */
    size_t params_len;
} tf_access;
_Static_assert(TF_MAX_RANGES <= 8, "tf_access.maywrite has a bit per write");

/* Every pointer-sized value of parameter bytes, at every byte offset, until
 * fn returns true (then true). */
typedef bool (*tf_word_fn)(uint64_t value, size_t offset, void *ctx);
bool tf_scan_words(const void *bytes, size_t len, tf_word_fn fn, void *ctx);

/* An empty access. Only the entries below the counts are ever read, so the
 * range arrays (about 600 bytes) are left as they are: zeroing them was a
 * hundred instructions on every described call. */
static inline void tf_access_init(tf_access *a, const char *api, uint64_t stream)
{
    a->api = api;
    a->stream = stream;
    a->nreads = a->nwrites = 0;
    a->unknown = false;
    a->maywrite = 0;
    a->overflow = false;
    a->params = NULL;
    a->params_len = 0;
}

/* Inline as tf_access_init: every described call adds a few, and a view
 * passed by value to another file was copied twice. */
static inline void tf_access_read(tf_access *a, tf_range r)
{
    if (a->nreads < TF_MAX_RANGES)
        a->reads[a->nreads++] = r;
    else
        a->unknown = a->overflow = true; /* more than we can list: be conservative */
}

static inline void tf_access_write(tf_access *a, tf_view w)
{
    if (a->nwrites < TF_MAX_RANGES)
        a->writes[a->nwrites++] = w;
    else
        a->unknown = a->overflow = true;
}

/* A write that may touch any byte of r, but need not touch them all. */
static inline void tf_access_maywrite(tf_access *a, tf_range r)
{
    if (a->nwrites < TF_MAX_RANGES) {
        a->maywrite |= (uint8_t)(1u << a->nwrites);
        a->writes[a->nwrites++] = tf_view_dense(r.lo, r.hi - r.lo);
    } else {
        a->unknown = a->overflow = true;
    }
}

/* One input matrix of a GEMM-like call. */
typedef struct tf_operand {
    const char *role;     /* "A", "B" */
    tf_view v;
    tf_op op;
    tf_reason refuse;     /* set by the hook when this operand may not be rewritten */
} tf_operand;

typedef struct tf_gemm {
    tf_access acc;        /* api, stream, output writes, other reads */
    const char *dtype;
    int64_t m, n, k;
    bool complex_type;
    bool alpha_host;      /* alpha may be multiplied by a record's scale */
    /* A batched call the hook can issue as several, each over a run of
     * its batches (tf_rewrite.groups): a strided-batched cuBLAS GEMM. */
    bool splittable;
    tf_operand in[2];
    int nin;
} tf_gemm;

/* A GEMM with no operands yet (its arrays left as they are, as in
 * tf_access_init). */
static inline void tf_gemm_init(tf_gemm *g, const char *api, uint64_t stream)
{
    tf_access_init(&g->acc, api, stream);
    g->dtype = NULL;
    g->m = g->n = g->k = 0;
    g->complex_type = g->alpha_host = g->splittable = false;
    g->nin = 0;
}

/* What the hook must change in one operand. */
typedef struct tf_rewrite {
    bool folded;
    uint64_t addr;
    int64_t ld, stride;
    tf_op op;
    uint64_t record;      /* id of the record folded onto */
    /* More than 1: the operand's batches step through each batch of the
     * transpose in several sub-matrices (heads split from one projection:
     * two batch levels, which no one stride can say). The call is issued
     * as `groups` calls of batch / groups batches each (tf_plan.groups);
     * from one to the next this operand's address moves `group_stride`
     * elements, every other operand its own stride times those batches. */
    int64_t groups, group_stride;
} tf_rewrite;

typedef struct tf_plan {
    tf_rewrite in[2];
    bool any;             /* at least one operand rewritten: call with new arguments */
    double alpha_mul;     /* multiply alpha (re and im) by this; 1 when unchanged */
    int64_t groups;       /* 0 or 1: one call; else the calls to issue (tf_rewrite.groups) */
    /* The engine's own, from tf_gemm_begin to tf_gemm_end: no pending
     * record was under the call's output when begin was done, and none
     * was made up to record id `out_mark`. Then end has nothing to drop
     * and does not search again. */
    bool out_clear;
    uint64_t out_mark;
} tf_plan;

typedef struct tf_engine tf_engine;

tf_engine *tf_engine_new(const tf_config *cfg);
/* Process exit: drops what is pending, writes the summary, frees everything. */
void tf_engine_free(tf_engine *e);
/* Number of pending records and of late reads still unordered (late.c);
 * hooks skip the engine entirely when it is 0 and the call cannot create
 * one. */
size_t tf_engine_pending(const tf_engine *e);

/* Provenance of memory. */
void tf_alloc(tf_engine *e, uint64_t base, uint64_t size, tf_mem_kind kind);
/* The device or pool allocation holding addr, as a range; false when none
 * (what an effect rule's reads= pointers reach). */
bool tf_alloc_span(const tf_engine *e, uint64_t addr, tf_range *r);
/* Around the real free, with no other engine call in between (the caller
 * holds its lock across the free, so the address cannot be reused
 * meanwhile): begin materialises records reading from the allocation; end,
 * when the free succeeded, drops records writing into it and forgets it. */
void tf_free_begin(tf_engine *e, uint64_t base, uint64_t stream, const char *api);
void tf_free_end(tf_engine *e, uint64_t base, const char *api, bool ok);
/* Instead of tf_free_begin, a real stream-ordered free and tf_free_end:
 * true when the free of f->base on f->stream (f->bytes is the engine's
 * to fill) is held for pending records (tf_hold_ops): the engine treats the
 * memory as freed from now on and the caller must not free it; false:
 * free it as usual. */
bool tf_free_hold(tf_engine *e, tf_held_free *f, const char *api);
/* The allocator ran out of memory: every record holding a free runs now,
 * and the frees are made; true when there was one. */
bool tf_holds_return(tf_engine *e, uint64_t stream, const char *api);
/* A tensor's storage died inside an allocation that lives on (PyTorch's
 * caching allocator keeps the block for the next tensor, and says so only
 * to its profiler hook): records writing only into those bytes die with
 * it, as at a free; no one may read a dead tensor, so what reads the bytes
 * is left to whatever writes them next (an overwrite, as today). */
void tf_storage_freed(tf_engine *e, tf_range r, const char *api);
/* The live device (or pool) allocation holding byte `addr`, as a range:
 * where a decoded launch's pointers must point before its ranges are
 * trusted (and, since a kernel cannot reach past its allocation without
 * faulting, what bounds a range known only as an upper bound). */
bool tf_alloc_range(const tf_engine *e, uint64_t addr, tf_range *out);

/* Any call that is not a producer or a foldable GEMM. */
void tf_access_begin(tf_engine *e, const tf_access *a);
void tf_access_end(tf_engine *e, const tf_access *a, bool ok);

/* A producer. `refuse` names why the hook cannot defer it (e.g. device
 * pointer mode), or has key TF_R_NONE. Returns true when the call must NOT run now (it
 * became a pending record, which now owns `replay`); false when the hook runs
 * it and then calls tf_transpose_end. In log mode always false. */
bool tf_transpose_begin(tf_engine *e, const tf_transpose_desc *d, tf_replay replay, tf_why refuse);
/* The same, with the replay and the reason by reference (refuse NULL: the
 * hook has no objection): no copies of them on every producer's way in. */
bool tf_transpose_begin_ref(tf_engine *e, const tf_transpose_desc *d, const tf_replay *replay,
                            const tf_why *refuse);
void tf_transpose_end(tf_engine *e, const tf_transpose_desc *d, bool ok);
/* Without the engine (or its lock): false when tf_transpose_end would have
 * nothing to do for the producer this thread just ran, which is a log-mode
 * producer that succeeded and whose record tf_transpose_begin already made;
 * the caller may then skip it. */
bool tf_transpose_end_needed(bool ok);

/* A GEMM-like consumer. Fills *plan; in log mode plan->any stays false but
 * the would-be folds are logged. If the rewritten call fails, the hook calls
 * tf_gemm_fallback (which materialises what the plan relied on), reissues the
 * original call and ends with the plan it returned. */
void tf_gemm_begin(tf_engine *e, const tf_gemm *g, tf_plan *plan);
void tf_gemm_fallback(tf_engine *e, const tf_gemm *g, tf_plan *plan, tf_reason why);
void tf_gemm_end(tf_engine *e, const tf_gemm *g, const tf_plan *plan, bool ok);
/* Output folding, after tf_gemm_end of a GEMM the hook did not run: the
 * GEMM becomes a pending record owning `replay` (true), or the hook runs it
 * now (false: not enabled, verify mode, log mode, a capture, an output that
 * is read (beta not 0), memory not the device's). `handle`: the library
 * handle the replay needs; `ws`: the workspace the program set on it,
 * which the replay will use (empty: the library's own): written or freed
 * meanwhile, the GEMM runs first. */
bool tf_gemm_defer(tf_engine *e, const tf_gemm *g, uint64_t handle, tf_range ws, const tf_replay *replay,
                   const tf_gemm_replay_ops *ops);

/* Forced materialisations. */
void tf_materialize_all(tf_engine *e, uint64_t trigger_stream, tf_why reason);
void tf_materialize_stream(tf_engine *e, uint64_t stream, tf_why reason);
void tf_materialize_handle(tf_engine *e, uint64_t handle, tf_why reason);

/* Verify mode. A pending record's description (false if none), and a replay
 * of it into scratch memory (non-zero when it cannot be done). */
bool tf_record_get(tf_engine *e, uint64_t id, tf_transpose_desc *d);
int tf_record_run_to(tf_engine *e, uint64_t id, uint64_t dst, uint64_t stream);
/* Logs a "verify" event for a folded call and counts mismatches. */
void tf_verify_report(tf_engine *e, const tf_gemm *g, const struct tf_verify_result *r);
/* Logs a "verify" event for a folded call that could not be checked. */
void tf_verify_skipped(tf_engine *e, const tf_gemm *g, tf_reason reason);

/* Pure fold algebra, exposed for tests and the hooks' own checks. */
bool tf_scale_foldable(tf_scale s, tf_scales scales);
/* The op an operand read with `x` gets when its matrix is replaced by the
 * source of a (conj) transpose; false when no op expresses it. */
bool tf_fold_op(tf_op x, bool conj, bool complex_type, tf_op *out);

#endif
