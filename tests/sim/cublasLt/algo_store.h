/* How algo.c and algo_caps.c keep an algorithm inside the 64 bytes of
 * cublasLtMatmulAlgo_t, and the tiles and stages every algorithm offers:
 * each one cublasLt.h names (the reference GEMM has no tiles), so a
 * configuration preset on a GPU is accepted too. */
#ifndef SIMLT_ALGO_STORE_H
#define SIMLT_ALGO_STORE_H
#include "algo.h"

#define SIMLT_ALGO_MAGIC 0x31474c414d4953ull /* "SIMALG1" */

typedef struct simlt_algo {
    uint64_t magic;
    int32_t id;
    uint32_t tile;
    int32_t splitk;
    uint32_t reduction, swizzle, custom, stages;
    uint16_t inner_shape, cluster_shape;
} simlt_algo;
_Static_assert(sizeof(simlt_algo) <= sizeof(((cublasLtMatmulAlgo_t *)0)->data), "algo storage");

#define SIMLT_ALGO(a) ((simlt_algo *)(void *)(a)->data)
#define SIMLT_CALGO(a) ((const simlt_algo *)(const void *)(a)->data)

/* Every tile / stages id but UNDEFINED, in enum order. */
#define SIMLT_ALGO_TILES (CUBLASLT_MATMUL_TILE_END - 1)
#define SIMLT_ALGO_STAGES (CUBLASLT_MATMUL_STAGES_END - 1)
SIM_HIDDEN_FN bool simlt_algo_tile_ok(uint32_t tile);
SIM_HIDDEN_FN bool simlt_algo_stages_ok(uint32_t stages);

#endif
