/* Turning a matmul descriptor and four layouts into one reference GEMM, with
 * the validation cublasLtMatmul and cublasLtMatmulAlgoGetHeuristic share. */
#ifndef SIMLT_PROBLEM_H
#define SIMLT_PROBLEM_H
#include "internal.h"

/* Checks the descriptor and layouts (not the data pointers) and fills in
 * g's shape, views (base pointers NULL) and epilogue kind. Returns
 * INVALID_VALUE for inconsistent arguments, NOT_SUPPORTED for what the
 * stand-in does not run, including its one documented unsupported
 * combination (see heuristic.c). */
SIM_HIDDEN_FN cublasStatus_t simlt_problem(const simlt_matmul_desc *desc, const simlt_layout *a, const simlt_layout *b,
                                           const simlt_layout *c, const simlt_layout *d, sim_gemm *g);

/* The stand-in's documented unsupported combinations (heuristic.c). */
SIM_HIDDEN_FN bool simlt_unsupported_combo(const simlt_matmul_desc *desc, const simlt_layout *a,
                                           const simlt_layout *b);

SIM_HIDDEN_FN const char *simlt_op_name(int32_t op);

#endif
