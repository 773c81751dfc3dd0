/* cublasLtMatmulAlgoCapGetAttribute: what every algorithm of the stand-in
 * can do. They run the reference GEMM, so the capabilities describe it:
 * split-K with any reduction scheme and CTA swizzling accepted (the result
 * is the same), strided batches and out-of-place D, column and row order
 * only, every pointer mode, the epilogues problem.c runs, no pointer
 * arrays, no negative ld, no emulation; element alignment. */
#include <pthread.h>
#include <string.h>

#include "algo_store.h"

/* The tile and stages ids cublasLt.h names, UNDEFINED left out. */
static uint32_t tiles[SIMLT_ALGO_TILES], stages[SIMLT_ALGO_STAGES];
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static void fill_lists(void)
{
    for (uint32_t i = 0; i < SIMLT_ALGO_TILES; i++)
        tiles[i] = i + 1;
    for (uint32_t i = 0; i < SIMLT_ALGO_STAGES; i++)
        stages[i] = i + 1;
}

/* A capability as bytes: a scalar of its documented type, or an array. */
typedef struct cap_value {
    const void *p;
    size_t size;
    bool array; /* a smaller buffer is refused, a larger one takes the array */
} cap_value;

static bool scalar_cap(int attr, cap_value *v)
{
    static const int32_t yes = 1, no = 0;
    static const uint32_t reduction = CUBLASLT_REDUCTION_SCHEME_MASK, swizzle = 1, align = 4,
                          pointer_modes = CUBLASLT_POINTER_MODE_MASK_HOST | CUBLASLT_POINTER_MODE_MASK_DEVICE |
                                          CUBLASLT_POINTER_MODE_MASK_DEVICE_VECTOR |
                                          CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_ZERO |
                                          CUBLASLT_POINTER_MODE_MASK_ALPHA_DEVICE_VECTOR_BETA_HOST,
                          epilogues = CUBLASLT_EPILOGUE_DEFAULT | CUBLASLT_EPILOGUE_RELU | CUBLASLT_EPILOGUE_BIAS |
                                      CUBLASLT_EPILOGUE_GELU | CUBLASLT_EPILOGUE_GELU_AUX;
    static const uint64_t numerics = CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA;
    switch (attr) {
    case CUBLASLT_ALGO_CAP_SPLITK_SUPPORT: *v = (cap_value){&yes, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK: *v = (cap_value){&reduction, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT: *v = (cap_value){&swizzle, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_STRIDED_BATCH_SUPPORT: *v = (cap_value){&yes, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_OUT_OF_PLACE_RESULT_SUPPORT: *v = (cap_value){&yes, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_UPLO_SUPPORT: *v = (cap_value){&no, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX: *v = (cap_value){&no, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_CUSTOM_MEMORY_ORDER: *v = (cap_value){&no, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_POINTER_MODE_MASK: *v = (cap_value){&pointer_modes, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_EPILOGUE_MASK: *v = (cap_value){&epilogues, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_LD_NEGATIVE: *v = (cap_value){&no, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS: *v = (cap_value){&numerics, 8, false}; return true;
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES:
    case CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES: *v = (cap_value){&align, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_POINTER_ARRAY_BATCH_SUPPORT: *v = (cap_value){&no, 4, false}; return true;
    case CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT: *v = (cap_value){&no, 4, false}; return true;
    default: return false;
    }
}

static bool cap(int attr, cap_value *v)
{
    pthread_once(&lists_once, fill_lists);
    if (attr == CUBLASLT_ALGO_CAP_TILE_IDS) {
        *v = (cap_value){tiles, sizeof tiles, true};
        return true;
    }
    if (attr == CUBLASLT_ALGO_CAP_STAGES_IDS) {
        *v = (cap_value){stages, sizeof stages, true};
        return true;
    }
    return scalar_cap(attr, v);
}

/* sizeInBytes == 0 asks for the size only. */
cublasStatus_t cublasLtMatmulAlgoCapGetAttribute(const cublasLtMatmulAlgo_t *algo, cublasLtMatmulAlgoCapAttributes_t attr,
                                                 void *buf, size_t sizeInBytes, size_t *sizeWritten)
{
    cap_value v;
    if (!algo || SIMLT_CALGO(algo)->magic != SIMLT_ALGO_MAGIC || !cap(attr, &v))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (sizeInBytes == 0) {
        if (!sizeWritten)
            return CUBLAS_STATUS_INVALID_VALUE;
        *sizeWritten = v.size;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (!buf || sizeInBytes < v.size || (!v.array && sizeInBytes != v.size))
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, v.p, v.size);
    if (sizeWritten)
        *sizeWritten = v.size;
    return CUBLAS_STATUS_SUCCESS;
}
