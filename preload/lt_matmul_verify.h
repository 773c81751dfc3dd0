/* Verify mode for folded cublasLtMatmul calls (lt_matmul_verify.c). */
#ifndef TF_LT_MATMUL_VERIFY_H
#define TF_LT_MATMUL_VERIFY_H
#include "lt_matmul.h"

/* Verify mode around a folded call: a snapshot of D before it (NULL when
 * verify is off), the unfolded call and comparison after it. */
void *lt_matmul_verify_begin(const tf_gemm *g);
void lt_matmul_verify_end(const lt_matmul_call *c, const lt_matmul_shadow *s, const tf_gemm *g,
                          const tf_plan *plan, void *snapshot, bool ran);

#endif
