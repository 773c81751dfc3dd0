/* Planar complex operands (planar.c). */
#ifndef SIMLT_PLANAR_H
#define SIMLT_PLANAR_H
#include "internal.h"

/* Whether the layout is planar complex. */
SIM_HIDDEN_FN bool simlt_planar(const simlt_layout *l);
/* An interleaved copy of the planar data at base (malloc'd; NULL when out
 * of memory), indexed as the layout indexes its elements. */
SIM_HIDDEN_FN void *simlt_planar_gather(const simlt_layout *l, const void *base);
/* Writes an interleaved copy back into the planar data at base. */
SIM_HIDDEN_FN void simlt_planar_scatter(const simlt_layout *l, const void *copy, void *base);

/* Runs the GEMM on interleaved copies of the operands whose layout in ls
 * is planar (the others NULL) and writes D back. */
SIM_HIDDEN_FN cublasStatus_t simlt_planar_gemm(sim_gemm *g, const simlt_layout *const ls[4]);

#endif
