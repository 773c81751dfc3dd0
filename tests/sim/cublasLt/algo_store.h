/* How algo.c and algo_caps.c keep an algorithm inside the 64 bytes of
 * cublasLtMatmulAlgo_t, and the tiles and stages every algorithm offers. */
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

#define SIMLT_ALGO_TILES 3
#define SIMLT_ALGO_STAGES 2
SIM_HIDDEN_FN extern const uint32_t simlt_algo_tiles[SIMLT_ALGO_TILES];
SIM_HIDDEN_FN extern const uint32_t simlt_algo_stages[SIMLT_ALGO_STAGES];

#endif
