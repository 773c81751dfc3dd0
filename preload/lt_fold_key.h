/* The signature a folded call is cached under (see lt_fold_cache.h). */
#ifndef TF_LT_FOLD_KEY_H
#define TF_LT_FOLD_KEY_H
#include "lt_fold_cache.h"

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
