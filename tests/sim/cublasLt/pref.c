/* cublasLtMatmulPreference_t. The stand-in's algorithm needs no workspace,
 * so MAX_WORKSPACE_BYTES never rules it out; the other preferences are
 * stored for the program to read back. */
#include <stdlib.h>

#include "internal.h"

#define P(id, field) SIMLT_ATTR(id, simlt_pref, field)
static const simlt_attr pref_attrs[] = {
    P(CUBLASLT_MATMUL_PREF_SEARCH_MODE, search_mode),
    P(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, max_workspace),
    P(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, reduction_mask),
    P(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, align_a),
    P(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, align_b),
    P(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, align_c),
    P(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, align_d),
    P(CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT, max_waves),
    P(CUBLASLT_MATMUL_PREF_IMPL_MASK, impl_mask),
};
#undef P

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size)
{
    simlt_pref *p = simlt_init_storage(pref, size, sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    p->search_mode = CUBLASLT_SEARCH_BEST_FIT;
    p->reduction_mask = CUBLASLT_REDUCTION_SCHEME_MASK;
    p->align_a = p->align_b = p->align_c = p->align_d = 256;
    p->impl_mask = UINT64_MAX;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref)
{
    if (!pref)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtMatmulPreference_t p = malloc(sizeof *p);
    if (!p)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasLtMatmulPreferenceInit_internal(p, sizeof *p);
    *pref = p;
    return CUBLAS_STATUS_SUCCESS;
}

SIMLT_DESCRIPTOR_FNS(cublasLtMatmulPreference, cublasLtMatmulPreferenceAttributes_t, pref_attrs)
