/* Deferred GEMMs (output folding, on unless TRANSFOLD_OUTPUT_FOLD=0): the call,
 * copied, to run later as it was or swapped into a transpose's place. */
#ifndef TF_CUBLAS_GEMM_REPLAY_H
#define TF_CUBLAS_GEMM_REPLAY_H
#include "cublas/cublas_gemm.h"
#include "cublas/handle_settings.h"

/* A replay of the GEMM `a` of kind k (host scalars of type t), on the
 * handle's stream `stream`, under the handle's settings as they were;
 * run == NULL when it cannot be made. */
tf_replay pl_gemm_replay_new(const gemm_kind *k, const gemm_args *a, pl_stype t, uint64_t stream,
                             const pl_handle_settings *settings);
/* The replay issued swapped into a transpose's destination (tf_run_transposed). */
int pl_gemm_replay_transposed(void *arg, uint64_t dst, int64_t ld, int64_t stride, uint64_t stream);
/* One operand copied aside, the replay reading the copy (tf_snapshot_operand). */
int pl_gemm_replay_copy_operand(void *arg, int operand, tf_range from, uint64_t stream, uint64_t *to);

#endif
