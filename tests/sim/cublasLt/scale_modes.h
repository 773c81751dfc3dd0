/* cublasLtMatmul's scale modes (scale_modes.c). */
#ifndef SIMLT_SCALE_MODES_H
#define SIMLT_SCALE_MODES_H
#include "internal.h"

/* SUCCESS when the descriptor's scale modes are ones the stand-in runs for
 * these layouts, k and batch count; NOT_SUPPORTED (or INVALID_VALUE for a
 * missing D_OUT pointer) otherwise. */
SIM_HIDDEN_FN cublasStatus_t simlt_scales_check(const simlt_matmul_desc *desc, const simlt_layout *a,
                                                const simlt_layout *b, const simlt_layout *d, int64_t k,
                                                int64_t batch);
/* Fills g's scale fields from the descriptor (g's shape set). */
SIM_HIDDEN_FN void simlt_scales_set(const simlt_matmul_desc *desc, sim_gemm *g);

#endif
