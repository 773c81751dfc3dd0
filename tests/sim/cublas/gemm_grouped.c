/* The grouped batched GEMMs: cublasSgemmGroupedBatched,
 * cublasDgemmGroupedBatched, cublasGemmGroupedBatchedEx (+ _64). Group g
 * holds group_size[g] problems with its own flags, sizes, leading
 * dimensions and scalars (alpha_array[g], beta_array[g]); the pointer
 * arrays list every problem of every group in turn. Each group runs as one
 * pointer-array batched GEMM on the reference GEMM (gemm_core.c). transfold
 * does not fold these calls: their pointer arrays are announced at the
 * driver first, as for the other calls it does not fold (access.h).
 * Trace: one classic GEMM line a group, named after the entry point. */
#include "access.h"
#include "args.h"

/* One call's arrays, whatever the integer width (widened here). */
typedef struct grouped {
    const char *name;
    const cublasOperation_t *ta, *tb;
    int64_t (*at)(const void *arr, int64_t g); /* reads element g of an int or int64_t array */
    const void *m, *n, *k, *lda, *ldb, *ldc;
    const char *alpha, *beta; /* arrays of scalars of the scale type */
    size_t scale_size;
    const void *const *a, *const *b;
    void *const *c;
    int64_t groups;
    const void *sizes;
    cudaDataType at_, ct_, scale;
} grouped;

static int64_t at32(const void *arr, int64_t g) { return ((const int *)arr)[g]; }
static int64_t at64(const void *arr, int64_t g) { return ((const int64_t *)arr)[g]; }

static cublasStatus_t run_groups(cublasHandle_t h, const grouped *q)
{
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (q->groups < 0 || (q->groups > 0 && (!q->sizes || !q->ta || !q->tb || !q->alpha || !q->beta)))
        return CUBLAS_STATUS_INVALID_VALUE;
    int64_t total = 0;
    for (int64_t g = 0; g < q->groups; g++) {
        if (q->at(q->sizes, g) < 0)
            return CUBLAS_STATUS_INVALID_VALUE;
        total += q->at(q->sizes, g);
    }
    if (total > 0)
        simcublas_announce(h, (const void *[]){q->a, q->b, q->c}, 3); /* the GEMMs queue themselves */
    for (int64_t g = 0, first = 0; g < q->groups; first += q->at(q->sizes, g), g++) {
        simcublas_gemm r = {.name = q->name, .ta = q->ta[g], .tb = q->tb[g], .m = q->at(q->m, g),
                            .n = q->at(q->n, g), .k = q->at(q->k, g), .lda = q->at(q->lda, g),
                            .ldb = q->at(q->ldb, g), .ldc = q->at(q->ldc, g), .batch = q->at(q->sizes, g),
                            .at = q->at_, .bt = q->at_, .ct = q->ct_, .scale = q->scale,
                            .alpha = q->alpha + g * q->scale_size, .beta = q->beta + g * q->scale_size,
                            .a = q->a + first, .b = q->b + first, .c = (void *)(q->c + first), .arrays = true};
        cublasStatus_t st = simcublas_gemm_run(h, &r);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
    }
    return CUBLAS_STATUS_SUCCESS;
}

#define GROUPED_FN(SYM, NAME, IT, T, DT, AT)                                                                    \
    cublasStatus_t SYM(cublasHandle_t handle, const cublasOperation_t transa_array[],                          \
                       const cublasOperation_t transb_array[], const IT m_array[], const IT n_array[],         \
                       const IT k_array[], const T alpha_array[], const T *const Aarray[], const IT lda_array[], \
                       const T *const Barray[], const IT ldb_array[], const T beta_array[], T *const Carray[], \
                       const IT ldc_array[], IT group_count, const IT group_size[])                            \
    {                                                                                                          \
        grouped q = {NAME, transa_array, transb_array, AT, m_array, n_array, k_array, lda_array, ldb_array,    \
                     ldc_array, (const char *)alpha_array, (const char *)beta_array, sizeof(T),                \
                     (const void *const *)Aarray, (const void *const *)Barray, (void *const *)Carray,          \
                     group_count, group_size, DT, DT, DT};                                                     \
        return run_groups(handle, &q);                                                                         \
    }
#define GROUPED_EX_FN(SYM, NAME, IT, AT)                                                                         \
    cublasStatus_t SYM(cublasHandle_t handle, const cublasOperation_t transa_array[],                           \
                       const cublasOperation_t transb_array[], const IT m_array[], const IT n_array[],          \
                       const IT k_array[], const void *alpha_array, const void *const Aarray[],                 \
                       cudaDataType_t Atype, const IT lda_array[], const void *const Barray[],                  \
                       cudaDataType_t Btype, const IT ldb_array[], const void *beta_array, void *const Carray[], \
                       cudaDataType_t Ctype, const IT ldc_array[], IT group_count, const IT group_size[],       \
                       cublasComputeType_t computeType)                                                         \
    {                                                                                                           \
        int scale = simcublasLt_scale_for(computeType, Ctype);                                                  \
        if (simcublas_handle_ok(handle) && scale < 0)                                                           \
            return CUBLAS_STATUS_INVALID_VALUE;                                                                 \
        if (simcublas_handle_ok(handle) &&                                                                      \
            (Atype != Btype || !simcublasLt_types_ok(computeType, (cudaDataType)scale, Atype, Ctype)))          \
            return CUBLAS_STATUS_NOT_SUPPORTED;                                                                 \
        grouped q = {NAME, transa_array, transb_array, AT, m_array, n_array, k_array, lda_array, ldb_array,     \
                     ldc_array, alpha_array, beta_array, scale < 0 ? 0 : simcublasLt_type_size((cudaDataType)scale), \
                     (const void *const *)Aarray, (const void *const *)Barray, Carray, group_count, group_size, \
                     Atype, Ctype, (cudaDataType)scale};                                                        \
        return run_groups(handle, &q);                                                                          \
    }

GROUPED_FN(cublasSgemmGroupedBatched, "cublasSgemmGroupedBatched", int, float, CUDA_R_32F, at32)
GROUPED_FN(cublasSgemmGroupedBatched_64, "cublasSgemmGroupedBatched_64", int64_t, float, CUDA_R_32F, at64)
GROUPED_FN(cublasDgemmGroupedBatched, "cublasDgemmGroupedBatched", int, double, CUDA_R_64F, at32)
GROUPED_FN(cublasDgemmGroupedBatched_64, "cublasDgemmGroupedBatched_64", int64_t, double, CUDA_R_64F, at64)
GROUPED_EX_FN(cublasGemmGroupedBatchedEx, "cublasGemmGroupedBatchedEx", int, at32)
GROUPED_EX_FN(cublasGemmGroupedBatchedEx_64, "cublasGemmGroupedBatchedEx_64", int64_t, at64)
