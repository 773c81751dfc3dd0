/* Internal: the per-operand fold decision. */
#ifndef TF_ALGEBRA_H
#define TF_ALGEBRA_H
#include "engine.h"

typedef struct fold_verdict {
    tf_rewrite rw;     /* filled when folded */
    double alpha;      /* the record's scale, to multiply into the GEMM's alpha */
    tf_why why;        /* the refusal (only its key, TF_R_NONE, set when folded) */
} fold_verdict;

bool fold_op_for(const tf_transpose_desc *p, const tf_gemm *g, tf_op x, tf_op *out);
bool fold_operand(const tf_transpose_desc *p, const tf_operand *x, const tf_gemm *g, fold_verdict *v);

#endif
