/* cublasLtEmulationDesc_t: floating-point emulation settings, stored for
 * the program to read back. The stand-in computes every GEMM natively (its
 * reference GEMM), so no setting changes a result; a matmul descriptor may
 * carry one (CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR) without effect. */
#include <stdlib.h>

#include "internal.h"

typedef struct simlt_emulation {
    int32_t strategy, special_values, mantissa_control, max_mantissa_bits, mantissa_offset;
    int32_t *mantissa_bit_count;
} simlt_emulation;
_Static_assert(sizeof(simlt_emulation) <= sizeof(cublasLtEmulationDescOpaque_t), "emulation desc fits");

#define E(id, field) SIMLT_ATTR(id, simlt_emulation, field)
static const simlt_attr emulation_attrs[] = {
    E(CUBLASLT_EMULATION_DESC_STRATEGY, strategy),
    E(CUBLASLT_EMULATION_DESC_SPECIAL_VALUES_SUPPORT, special_values),
    E(CUBLASLT_EMULATION_DESC_FIXEDPOINT_MANTISSA_CONTROL, mantissa_control),
    E(CUBLASLT_EMULATION_DESC_FIXEDPOINT_MAX_MANTISSA_BIT_COUNT, max_mantissa_bits),
    E(CUBLASLT_EMULATION_DESC_FIXEDPOINT_MANTISSA_BIT_OFFSET, mantissa_offset),
    E(CUBLASLT_EMULATION_DESC_FIXEDPOINT_MANTISSA_BIT_COUNT_POINTER, mantissa_bit_count),
};
#undef E

/* Defaults as cublasLt.h documents them. */
cublasStatus_t cublasLtEmulationDescInit_internal(cublasLtEmulationDesc_t desc, size_t size)
{
    simlt_emulation *e = simlt_init_storage(desc, size, sizeof *e);
    if (!e)
        return CUBLAS_STATUS_ALLOC_FAILED;
    e->special_values = 0xFFFF;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtEmulationDescCreate(cublasLtEmulationDesc_t *desc)
{
    if (!desc)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasLtEmulationDesc_t e = malloc(sizeof *e);
    if (!e)
        return CUBLAS_STATUS_ALLOC_FAILED;
    cublasLtEmulationDescInit_internal(e, sizeof *e);
    *desc = e;
    return CUBLAS_STATUS_SUCCESS;
}

SIMLT_DESCRIPTOR_FNS(cublasLtEmulationDesc, cublasLtEmulationDescAttributes_t, emulation_attrs)
