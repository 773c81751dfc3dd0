/* Algorithms: their storage inside cublasLtMatmulAlgo_t, initialisation,
 * configuration attributes (cublasLtMatmulAlgoConfigSet/GetAttribute) and
 * the validity check (algo.h). Capabilities: algo_caps.c. */
#include <string.h>

#include "algo.h"
#include "algo_store.h"

bool simlt_algo_types_ok(cublasComputeType_t compute, cudaDataType_t scale, cudaDataType_t a, cudaDataType_t b,
                         cudaDataType_t c, cudaDataType_t d)
{
    if (a == CUDA_R_4F_E2M1 || b == CUDA_R_4F_E2M1)
        return simlt_fp4_types_ok(compute, scale, a, b, c, d);
    if (simlt_imma_types_ok(compute, scale, a, b, c, d))
        return true;
    if (sim_elem_fp8(a) || sim_elem_fp8(b))
        return simlt_fp8_types_ok(compute, scale, a, b, c, d);
    return a == b && c == d && simcublasLt_types_ok(compute, scale, a, c);
}

void simlt_algo_init(cublasLtMatmulAlgo_t *algo, int id, bool tuned)
{
    memset(algo, 0, sizeof *algo);
    simlt_algo *s = SIMLT_ALGO(algo);
    s->magic = SIMLT_ALGO_MAGIC;
    s->id = id;
    s->splitk = 1;
    s->reduction = CUBLASLT_REDUCTION_SCHEME_NONE;
    s->tile = tuned ? CUBLASLT_MATMUL_TILE_128x128 : CUBLASLT_MATMUL_TILE_UNDEFINED;
    s->stages = tuned ? CUBLASLT_MATMUL_STAGES_64x3 : CUBLASLT_MATMUL_STAGES_UNDEFINED;
}

bool simlt_algo_tile_ok(uint32_t tile) { return tile > CUBLASLT_MATMUL_TILE_UNDEFINED && tile < CUBLASLT_MATMUL_TILE_END; }

bool simlt_algo_stages_ok(uint32_t stages)
{
    return stages > CUBLASLT_MATMUL_STAGES_UNDEFINED && stages < CUBLASLT_MATMUL_STAGES_END;
}

cublasStatus_t simlt_algo_check(const cublasLtMatmulAlgo_t *algo)
{
    const simlt_algo *s = SIMLT_CALGO(algo);
    if (s->magic != SIMLT_ALGO_MAGIC || s->id < 0 || s->id >= SIMLT_ALGO_IDS)
        return CUBLAS_STATUS_INVALID_VALUE;
    bool tile_ok = s->tile == CUBLASLT_MATMUL_TILE_UNDEFINED || simlt_algo_tile_ok(s->tile);
    bool stages_ok = s->stages == CUBLASLT_MATMUL_STAGES_UNDEFINED || simlt_algo_stages_ok(s->stages);
    bool split_ok = s->splitk >= 1 && (s->splitk == 1 || (s->reduction & ~(uint32_t)CUBLASLT_REDUCTION_SCHEME_MASK) == 0);
    if (!tile_ok || !stages_ok || !split_ok || s->swizzle > 1 || s->custom != 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* The ID is read-only: set by cublasLtMatmulAlgoInit, read back here. */
static const simlt_attr config_tab[] = {
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_TILE_ID, simlt_algo, tile),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, simlt_algo, splitk),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, simlt_algo, reduction),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, simlt_algo, swizzle),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, simlt_algo, custom),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_STAGES_ID, simlt_algo, stages),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, simlt_algo, inner_shape),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, simlt_algo, cluster_shape),
    SIMLT_ATTR(CUBLASLT_ALGO_CONFIG_ID, simlt_algo, id),
};
#define CONFIG_N (sizeof config_tab / sizeof config_tab[0])

cublasStatus_t cublasLtMatmulAlgoConfigSetAttribute(cublasLtMatmulAlgo_t *algo, cublasLtMatmulAlgoConfigAttributes_t attr,
                                                    const void *buf, size_t sizeInBytes)
{
    if (!algo || attr == CUBLASLT_ALGO_CONFIG_ID)
        return CUBLAS_STATUS_INVALID_VALUE;
    return simlt_attr_set(config_tab, CONFIG_N, SIMLT_ALGO(algo), attr, buf, sizeInBytes);
}

cublasStatus_t cublasLtMatmulAlgoConfigGetAttribute(const cublasLtMatmulAlgo_t *algo,
                                                    cublasLtMatmulAlgoConfigAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten)
{
    if (!algo)
        return CUBLAS_STATUS_INVALID_VALUE;
    return simlt_attr_get(config_tab, CONFIG_N, SIMLT_CALGO(algo), attr, buf, sizeInBytes, sizeWritten);
}
