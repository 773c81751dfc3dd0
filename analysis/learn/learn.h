/* Learning which unknown kernels are transposes (zero configuration).
 *
 * 1. Every unknown launch is noted as a signature: the function's identity
 *    (handle and module), its grid and block, and its packed parameter bytes
 *    with every pointer-valued 8-byte slot masked. The last few are kept.
 * 2. When a GEMM operand lies in an allocation the newest noted launch
 *    pointed into, that launch's signature becomes a candidate, with the
 *    GEMM's view of the operand. (The preload notes only the launches of
 *    functions it watches: those launched shortly before a GEMM whose
 *    operand had no noted writer; see knobs.note_recent.)
 * 3. The next launches of a candidate are measured by the preload (run twice
 *    over two sentinel fills of the output, everything reachable snapshotted
 *    and restored); the engine decides on the data whether the written bytes
 *    are exactly the GEMM's view and equal the transpose of another pointer
 *    parameter's region. K proofs make the signature trusted; any failure
 *    rejects it for the process.
 * 4. A launch of a trusted signature is a transpose producer like a rule
 *    match: tf_learn_describe gives its views.
 * Pure C; the measuring itself (device memory) is the preload's. */
#ifndef TF_LEARN_H
#define TF_LEARN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define TF_LEARN_MAX_PARAM_BYTES 4096 /* launches with more parameter bytes are not learned */
#define TF_LEARN_MAX_PTRS 8           /* pointer slots a learned kernel may have */

typedef struct tf_learn_knobs {
    int k;                  /* verified launches before trust (default 2) */
    uint64_t max_bytes;     /* bytes one measurement may snapshot */
    int max_candidates;     /* signatures measured at once, process-wide */
    int max_signatures;     /* signatures remembered at all (memory bound) */
    /* Called when a GEMM operand's writer is not among the noted launches:
     * the caller then notes the functions it launched last (may be NULL). */
    void (*note_recent)(void);
    /* Whether note_recent would note anything now (functions launched since
     * it last ran); NULL: assume it would. A GEMM with nothing to make a
     * candidate of and nothing for note_recent to note is not looked at.
     * Launches on other threads may race with it: the GEMM then sees them as
     * launched after it, as note_recent's own test would. */
    bool (*recent_unnoted)(void);
} tf_learn_knobs;

/* An unknown launch as the engine sees it. */
typedef struct tf_learn_launch {
    uint64_t fn, module;          /* function handle, module identity (0 when unknown) */
    const char *name;             /* device name, for the log (may be NULL) */
    unsigned grid[3], block[3];
    const unsigned char *params;  /* packed parameter bytes */
    size_t len;
} tf_learn_launch;

typedef enum tf_learn_action { TF_LEARN_RUN, TF_LEARN_MEASURE, TF_LEARN_PRODUCE } tf_learn_action;

/* What a measurement must snapshot: the allocations the pointer slots reach,
 * and which of them the GEMM read (the output). */
typedef struct tf_learn_plan {
    uint64_t sig;                 /* the signature's id */
    tf_range reach[TF_LEARN_MAX_PTRS];
    int nreach, out;
} tf_learn_plan;

/* The measurement: per reachable allocation its bytes before, after run A
 * (output filled with sentinel byte sa first) and after run B (sb). For the
 * other allocations after_a/after_b are their bytes after each run. */
typedef struct tf_learn_obs {
    const unsigned char *before[TF_LEARN_MAX_PTRS], *after_a[TF_LEARN_MAX_PTRS], *after_b[TF_LEARN_MAX_PTRS];
    unsigned char sa, sb;
    int status;                   /* non-zero: the measuring launches failed (nothing proven) */
} tf_learn_obs;

/* Turns learning on; before any allocation is noted (what a pointer looks
 * like is learned from the allocations that follow). */
void tf_learn_setup(tf_engine *e, const tf_learn_knobs *k);
bool tf_learn_on(const tf_engine *e);

/* An unknown launch: noted, and what to do with it. MEASURE fills *plan;
 * PRODUCE means tf_learn_describe gives its transpose. */
tf_learn_action tf_learn_launch_begin(tf_engine *e, const tf_learn_launch *l, tf_learn_plan *plan);
/* The engine's verdict on a measurement of plan->sig; logs it. */
void tf_learn_measured(tf_engine *e, const tf_learn_launch *l, const tf_learn_plan *plan, const tf_learn_obs *o);
/* A trusted launch's transpose (name and producer as given in l). */
bool tf_learn_describe(tf_engine *e, const tf_learn_launch *l, tf_transpose_desc *d);
/* Whether a GEMM could make a candidate of a noted launch now (a noted
 * launch whose signature is not yet judged): GEMMs need not be shown to
 * learning otherwise, unless new functions were launched. */
bool tf_learn_open(const tf_engine *e);
/* Verify mode found a GEMM folded onto pending record `record` wrong: the
 * learned signatures that could have produced it (same kernel name and
 * views) are rejected for the rest of the process. */
void tf_learn_distrust(tf_engine *e, uint64_t record, tf_reason why);
/* A GEMM read these operands: candidates (called by tf_gemm_begin). */
void learn_gemm(tf_engine *e, const tf_gemm *g);

/* Proven transposes, for writing rules (transfold learn -o). */
typedef struct tf_learned {
    uint64_t fn, module;
    const char *name;
    unsigned grid[3], block[3];
    const unsigned char *params;  /* masked bytes: pointer slots zero */
    const uint64_t *ptr_mask;     /* bit i: 8-byte slot i is a pointer */
    size_t len;
    size_t in_off, out_off;       /* byte offsets of the in and out pointer slots */
    int64_t in_delta, out_delta;  /* view address minus the pointer's value */
    tf_view src, dst;             /* addresses relative (0 + delta) */
} tf_learned;
/* Calls fn for every trusted signature; returns how many. */
int tf_learn_each_trusted(const tf_engine *e, void (*fn)(const tf_learned *t, void *arg), void *arg);

/* --- pure pieces, exposed for the unit tests ------------------------------ */

/* The proof on one measurement. `view` is the GEMM's view of the output
 * (absolute address inside reach[out]); the other reachable allocations are
 * searched for a region whose transpose the written bytes are, with the
 * source's ld and batch stride among `lds` (dense first). On success fills
 * *src and returns NULL; else the reason. */
typedef struct tf_proof_in {
    const tf_range *reach;
    int nreach, out;
    const tf_learn_obs *obs;
    tf_view view;
    const uint64_t *ptrs;         /* the pointer values of the launch */
    int nptrs;
    const int64_t *lds;           /* candidate source lds/strides from the scalar parameters */
    int nlds;
} tf_proof_in;
/* Why the observation proves no transpose (TF_R_NONE: it proves one). */
tf_reason tf_learn_prove(const tf_proof_in *in, tf_view *src, int *src_ptr);

#endif
