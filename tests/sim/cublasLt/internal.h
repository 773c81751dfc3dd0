/* libcublasLt stand-in internals: descriptor contents and shared helpers.
 * Descriptors live inside the public semi-opaque structs (so the *Init
 * functions work on caller-provided storage); static asserts keep them in. */
#ifndef SIMLT_INTERNAL_H
#define SIMLT_INTERNAL_H
#include <string.h>

#include <cublasLt.h>

#include "elem.h"
#include "handle_magic.h"
#include "simlt.h"

/* Device addresses appear in the trace as decimal integers, like the
 * runtime stand-in's. */
#define SIMLT_PTR(p) ((unsigned long long)(uintptr_t)(p))

struct cublasLtContext {
    uint32_t magic;
};

/* NOT_INITIALIZED for a NULL or foreign handle. A live cuBLAS handle is a
 * cuBLASLt handle too (its struct starts with its own tag, handle_magic.h). */
SIM_HIDDEN_FN cublasStatus_t simlt_check_handle(cublasLtHandle_t h);

typedef struct simlt_layout {
    uint64_t rows, cols;
    int64_t ld, batch_offset, plane_offset;
    uint32_t type;
    int32_t order, batch_count;
    uint32_t batch_mode;
} simlt_layout;

typedef struct simlt_matmul_desc {
    void *bias, *aux, *a_scale, *b_scale, *c_scale, *d_scale, *amax_d, *aux_scale, *aux_amax, *d_out_scale,
        *emulation;
    int64_t bias_bs, aux_ld, aux_bs, alpha_vec_bs;
    int32_t compute, scale, pointer_mode, transa, transb, transc, fill, sm_count, aux_type, bias_type;
    int32_t a_scale_mode, b_scale_mode, c_scale_mode, d_scale_mode, aux_scale_mode, d_out_scale_mode;
    uint32_t epilogue;
    int8_t fast_accum;
} simlt_matmul_desc;

typedef struct simlt_pref {
    uint64_t max_workspace, impl_mask;
    uint32_t search_mode, reduction_mask, align_a, align_b, align_c, align_d;
    float max_waves;
} simlt_pref;

typedef struct simlt_transform_desc {
    int32_t scale, pointer_mode, transa, transb;
} simlt_transform_desc;

_Static_assert(sizeof(simlt_layout) <= sizeof(cublasLtMatrixLayoutOpaque_t), "layout fits");
_Static_assert(sizeof(simlt_matmul_desc) <= sizeof(cublasLtMatmulDescOpaque_t), "matmul desc fits");
_Static_assert(sizeof(simlt_pref) <= sizeof(cublasLtMatmulPreferenceOpaque_t), "preference fits");
_Static_assert(sizeof(simlt_transform_desc) <= sizeof(cublasLtMatrixTransformDescOpaque_t), "transform fits");

/* The storage an *Init_internal fills in: the caller's, zeroed; NULL (the
 * caller returns ALLOC_FAILED, as the real library does) when it is missing
 * or smaller than the stand-in's descriptor. */
static inline void *simlt_init_storage(void *obj, size_t size, size_t need)
{
    return obj && size >= need ? memset(obj, 0, need) : NULL;
}

#define SIMLT_LAYOUT(p) ((simlt_layout *)(void *)(p))
#define SIMLT_DESC(p) ((simlt_matmul_desc *)(void *)(p))
#define SIMLT_PREF(p) ((simlt_pref *)(void *)(p))
#define SIMLT_TDESC(p) ((simlt_transform_desc *)(void *)(p))

/* Table-driven attribute access: one row per attribute, giving where the
 * value lives in the descriptor and its exact size in bytes. */
typedef struct simlt_attr {
    int id;
    size_t offset, size;
} simlt_attr;
#define SIMLT_ATTR(id, type, field) {(id), offsetof(type, field), sizeof(((type *)0)->field)}

SIM_HIDDEN_FN cublasStatus_t simlt_attr_set(const simlt_attr *tab, size_t n, void *obj, int id, const void *buf,
                                            size_t size);
SIM_HIDDEN_FN cublasStatus_t simlt_attr_get(const simlt_attr *tab, size_t n, const void *obj, int id, void *buf,
                                            size_t size, size_t *written);

/* A descriptor type's Destroy, SetAttribute and GetAttribute entry points
 * (PFX: cublasLtMatmulDesc, cublasLtMatrixLayout, ...), which differ only in
 * the attribute table TAB; Create and Init_internal, which set each type's
 * defaults, are written out per type. */
#define SIMLT_DESCRIPTOR_FNS(PFX, ATTR_T, TAB)                                                                 \
    cublasStatus_t PFX##Destroy(PFX##_t obj)                                                                   \
    {                                                                                                          \
        free(obj);                                                                                             \
        return CUBLAS_STATUS_SUCCESS;                                                                          \
    }                                                                                                          \
    cublasStatus_t PFX##SetAttribute(PFX##_t obj, ATTR_T attr, const void *buf, size_t sizeInBytes)            \
    {                                                                                                          \
        return simlt_attr_set(TAB, sizeof TAB / sizeof *TAB, obj, attr, buf, sizeInBytes);                     \
    }                                                                                                          \
    cublasStatus_t PFX##GetAttribute(PFX##_t obj, ATTR_T attr, void *buf, size_t sizeInBytes, size_t *sizeWritten) \
    {                                                                                                          \
        return simlt_attr_get(TAB, sizeof TAB / sizeof *TAB, obj, attr, buf, sizeInBytes, sizeWritten);        \
    }

/* Element (i, j) of a layout as a strided view, with the op applied:
 * rows/cols of the view are those of op(X). */
SIM_HIDDEN_FN sim_mat simlt_view(const simlt_layout *l, const void *base, cublasOperation_t op);

/* Whether the op value is one of N, T, C. */
SIM_HIDDEN_FN bool simlt_op_ok(int32_t op);

/* The stored dimensions of X such that op(X) is rows x cols. */
SIM_HIDDEN_FN void simlt_stored_dims(cublasOperation_t op, uint64_t rows, uint64_t cols, uint64_t *r, uint64_t *c);

/* INVALID_VALUE unless the layout is COL or ROW ordered with a valid ld,
 * a supported type and a batch count >= 1 (strided mode), or has an IMMA
 * order its type takes (tiled.h). */
SIM_HIDDEN_FN cublasStatus_t simlt_layout_check(const simlt_layout *l);

/* FP8 type combinations cublasLtMatmul runs (see types.c). */
SIM_HIDDEN_FN bool simlt_fp8_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b, cudaDataType c,
                                      cudaDataType d);

/* Integer (IMMA) matmuls: 32I compute and scale, 8I A and B, 32I C and D
 * (see types.c). */
SIM_HIDDEN_FN bool simlt_imma_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b,
                                       cudaDataType c, cudaDataType d);

/* FP4 (NVFP4) type combinations cublasLtMatmul runs (see types.c). */
SIM_HIDDEN_FN bool simlt_fp4_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b, cudaDataType c,
                                      cudaDataType d);

#endif
