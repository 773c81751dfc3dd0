/* The IMMA orders of cuBLASLt layouts (tiled.c): CUBLASLT_ORDER_COL32,
 * COL4_4R2_8C and COL32_2R_4R4. */
#ifndef SIMLT_TILED_H
#define SIMLT_TILED_H
#include "internal.h"

/* Whether the layout has one of the IMMA orders. */
SIM_HIDDEN_FN bool simlt_tiled(const simlt_layout *l);
/* SUCCESS for a tiled layout whose type the order takes (8-bit integers;
 * 32-bit integers in COL32) and whose ld reaches the next 32-column panel;
 * NOT_SUPPORTED or INVALID_VALUE otherwise. */
SIM_HIDDEN_FN cublasStatus_t simlt_tiled_check(const simlt_layout *l);
/* Offset in elements of (r, c) of batch 0. */
SIM_HIDDEN_FN int64_t simlt_tiled_offset(const simlt_layout *l, uint64_t r, uint64_t c);
/* Elements from index 0 to the last one the layout reaches, all batches. */
SIM_HIDDEN_FN int64_t simlt_tiled_extent(const simlt_layout *l);

/* Run the GEMM / the add with each tiled operand (ls[i] non-NULL) gathered
 * into a dense column-major copy (the view simlt_view gives a tiled layout)
 * and the output scattered back. */
SIM_HIDDEN_FN cublasStatus_t simlt_tiled_gemm(sim_gemm *g, const simlt_layout *const ls[4]);
SIM_HIDDEN_FN cublasStatus_t simlt_tiled_add(sim_add *op, const simlt_layout *const ls[3]);

#endif
