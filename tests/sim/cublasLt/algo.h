/* The stand-in's matmul algorithms (algo.c). Every algorithm runs every
 * problem the stand-in supports on the same reference GEMM, so results do
 * not depend on the algorithm or its configuration; what differs is what
 * a program can see: the id and the configuration it sets and reads back,
 * checked against the capabilities cublasLtMatmulAlgoCapGetAttribute
 * reports. */
#ifndef SIMLT_ALGO_H
#define SIMLT_ALGO_H
#include "internal.h"

/* GetIds and the heuristic offer ids 0 .. SIMLT_ALGO_COUNT - 1;
 * cublasLtMatmulAlgoInit accepts 0 .. SIMLT_ALGO_IDS - 1, so an id preset
 * from a GPU's list (such lists reach past 64) initialises too. */
#define SIMLT_ALGO_COUNT 4
#define SIMLT_ALGO_IDS 128

/* Whether the stand-in's cublasLtMatmul runs this type combination (the
 * classic one with C == D, or FP8 with its own C/D rules). */
SIM_HIDDEN_FN bool simlt_algo_types_ok(cublasComputeType_t compute, cudaDataType_t scale, cudaDataType_t a,
                                       cudaDataType_t b, cudaDataType_t c, cudaDataType_t d);

/* Algorithm `id` with its default configuration (cublasLtMatmulAlgoInit);
 * `tuned`: the concrete tile and stages a heuristic result carries. */
SIM_HIDDEN_FN void simlt_algo_init(cublasLtMatmulAlgo_t *algo, int id, bool tuned);

/* SUCCESS for an algorithm of the stand-in whose configuration lies within
 * its capabilities; INVALID_VALUE otherwise (cublasLtMatmulAlgoCheck). */
SIM_HIDDEN_FN cublasStatus_t simlt_algo_check(const cublasLtMatmulAlgo_t *algo);

#endif
