/* Verify mode (TRANSFOLD_VERIFY=1) for folded GEMMs: the unfolded call is
 * also made, on scratch copies of its output and of the transposes it would
 * have read, and the two results are compared. On a mismatch the unfolded
 * result is kept, so a wrong fold costs a loud message, not a wrong answer. */
#ifndef TF_GEMM_VERIFY_H
#define TF_GEMM_VERIFY_H
#include <stdbool.h>

#include "engine.h"

/* Where the unfolded call finds what the folded one did not read. */
typedef struct pl_relocation {
    bool moved[2];          /* operand i now lives elsewhere */
    uint64_t from[2], to[2];/* a record's destination and its scratch copy */
    uint64_t c_to;          /* the scratch output (same layout as C) */
} pl_relocation;

/* Where operand i's pointer p lies for the unfolded call. */
static inline const void *pl_relocated(const pl_relocation *r, int i, const void *p)
{
    return r->moved[i] ? (const void *)(uintptr_t)((uintptr_t)p - r->from[i] + r->to[i]) : p;
}

/* Issues the unfolded call with `r` applied; 0 on success. */
typedef int (*pl_unfolded_fn)(void *ctx, const pl_relocation *r);

bool pl_verify_enabled(void);
/* The snapshot for the folded call g, or NULL (and a "skipped" event)
 * while a stream capture is in progress: verify allocates, copies and
 * synchronizes, none of which a capture allows. */
void *pl_verify_start(const tf_gemm *g);
/* After it: the unfolded call into the snapshot, comparison, report. Frees
 * the snapshot. */
void pl_verify_gemm(const tf_gemm *g, const tf_plan *plan, const char *out_dtype, void *snapshot,
                    pl_unfolded_fn unfolded, void *ctx);

/* When the folded call failed and nothing is compared. */
void pl_verify_drop(void *snapshot);

#endif
