/* Folded cublasLtMatmul calls: the derived descriptors and the algorithm
 * the heuristic picked for them, cached per signature so a steady-state
 * folded call makes no heuristic query and builds nothing.
 *
 * The signature is everything the heuristic's answer depends on: the
 * handle, the workspace size, every attribute of the matmul descriptor and
 * the four layouts (pointer attributes reduced to their alignment), which
 * operands fold with what ld, batch stride and op, and the alignment of the
 * four matrices. The caller's algo belongs to the unfolded descriptors and
 * never carries over. */
#ifndef PL_LT_FOLD_CACHE_H
#define PL_LT_FOLD_CACHE_H
#include "lt/matmul.h"

/* What the engine's plan changes, per operand (A, B). The engine's op is
 * put in cuBLASLt terms (op) only when the cache misses: a hit for the same
 * snapshot and engine ops implies the same ops. */
typedef struct lt_fold {
    bool folded[2];
    const void *ptr[2];
    int64_t ld[2], stride[2];
    tf_op engine_op[2];
    cublasOperation_t op[2];            /* set by lt_fold_prepare on a miss */
} lt_fold;

typedef struct lt_fold_entry lt_fold_entry;

/* The descriptors and algorithm to call with. */
typedef struct lt_folded {
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t lay[2];      /* NULL where the operand is not folded */
    const cublasLtMatmulAlgo_t *algo;
    cublasLtMatmulDesc_t own_desc;      /* pointers differ from the cached one's: this call's */
    lt_fold_entry *own_entry;           /* the cache is full: this call's */
} lt_folded;

/* TF_R_NONE when `out` is ready, else why the folded call cannot be made
 * (an engine op with no cuBLASLt form: conj_row_order). Release `out`
 * afterwards either way. */
tf_reason lt_fold_prepare(const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f, lt_folded *out);
void lt_fold_release_owned(lt_folded *out);
/* Inline: a call served by the cache owns nothing, and pays no call. */
static inline void lt_fold_release(lt_folded *out)
{
    if (out->own_desc || out->own_entry)
        lt_fold_release_owned(out);
}
/* The handle is going away: its entries go with it. */
void lt_fold_forget_handle(cublasLtHandle_t h);

/* The signature a folded call is cached under (above). */
typedef struct lt_fold_key_head {
    uint64_t handle, workspace;
    int64_t ld[2], stride[2];
    uint32_t align[4];                  /* A, B, C, D after folding */
    uint32_t nattrs[5];                 /* descriptor, then layouts A..D */
    uint32_t folded[2];
    int32_t op[2];
    uint32_t pad;
} lt_fold_key_head;

#define LT_FOLD_KEY_MAX (sizeof(lt_fold_key_head) + 5 * LT_ATTR_MAX * sizeof(lt_attr))

typedef struct lt_fold_key {
    size_t len;
    unsigned char bytes[LT_FOLD_KEY_MAX];
} lt_fold_key;

/* A pointer's alignment as cuBLASLt preferences state it (at most 256). */
uint32_t lt_align(const void *p);
/* The matrix pointer the folded call passes for A..D. */
const void *lt_fold_ptr(const lt_matmul_call *c, const lt_fold *f, int i);
/* A hash of the key a word at a time (keys are whole words long): the
 * byte-wise default costs more than the rest of a folded call's lookup. */
uint32_t lt_fold_key_hash(const void *key, size_t len);
void lt_fold_key_make(lt_fold_key *k, const lt_matmul_call *c, const lt_matmul_shadow *s, const lt_fold *f);

#endif
