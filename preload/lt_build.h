/* Real cuBLASLt descriptors made from attribute sets: an equivalent of a
 * program's descriptor (its shadow), or one with a change (edit a copy of
 * the set first). Used for folded matmuls, heuristic preferences and the
 * deep copies a deferred transform replays with. */
#ifndef TF_LT_BUILD_H
#define TF_LT_BUILD_H
#include "hooks.h"
#include "lt_shadow.h"

/* Creates the descriptor and sets every recorded attribute. On failure
 * nothing is left behind and *out is NULL. */
cublasStatus_t lt_build(lt_kind kind, const lt_attrs *a, void **out);
void lt_unbuild(lt_kind kind, void *d);

/* A deep copy of a program's descriptor, from its shadow; NULL when it
 * has none (or d is NULL). */
void *lt_clone(lt_kind kind, const void *d);

#endif
