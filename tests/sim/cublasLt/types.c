/* Which type combinations the stand-in runs: the cublasGemmEx table of the
 * cuBLAS documentation (compute type, scale type, A/B type, C type), minus
 * the integer-output rows (CUBLAS_COMPUTE_32I), which report
 * CUBLAS_STATUS_NOT_SUPPORTED. cublasLtMatmul uses the same table. */
#include "elem.h"
#include "internal.h"
#include "simlt.h"

#include "arch.h"

static bool is_32f_class(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_32F || c == CUBLAS_COMPUTE_32F_PEDANTIC || c == CUBLAS_COMPUTE_32F_FAST_16F ||
           c == CUBLAS_COMPUTE_32F_FAST_16BF || c == CUBLAS_COMPUTE_32F_FAST_TF32 ||
           c == CUBLAS_COMPUTE_32F_EMULATED_16BFX9;
}

static bool is_64f_class(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_64F || c == CUBLAS_COMPUTE_64F_PEDANTIC ||
           c == CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT;
}

static bool is_16f_class(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_16F || c == CUBLAS_COMPUTE_16F_PEDANTIC;
}

/* The plain 32F (and pedantic) compute types also take reduced-precision
 * inputs; the FAST/EMULATED ones only f32 and c32 data. */
static bool ok_32f(cublasComputeType_t compute, cudaDataType scale, cudaDataType ab, cudaDataType cd)
{
    bool plain = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC;
    if (scale == CUDA_C_32F)
        return cd == CUDA_C_32F && (ab == CUDA_C_32F || (plain && ab == CUDA_C_8I));
    if (scale != CUDA_R_32F)
        return false;
    if (ab == CUDA_R_32F)
        return cd == CUDA_R_32F;
    if (!plain)
        return false;
    if (ab == CUDA_R_16F || ab == CUDA_R_16BF)
        return cd == ab || cd == CUDA_R_32F;
    return ab == CUDA_R_8I && cd == CUDA_R_32F;
}

bool simcublasLt_types_ok(cublasComputeType_t compute, cudaDataType scale, cudaDataType ab, cudaDataType cd)
{
    if (is_16f_class(compute))
        return scale == CUDA_R_16F && ab == CUDA_R_16F && cd == CUDA_R_16F;
    if (is_64f_class(compute))
        return (scale == CUDA_R_64F || scale == CUDA_C_64F) && ab == scale && cd == scale;
    if (is_32f_class(compute))
        return ok_32f(compute, scale, ab, cd);
    return false;
}

int simcublasLt_scale_for(cublasComputeType_t compute, cudaDataType c)
{
    bool cplx = sim_elem_complex(c);
    if (is_16f_class(compute))
        return CUDA_R_16F;
    if (is_64f_class(compute))
        return cplx ? CUDA_C_64F : CUDA_R_64F;
    if (is_32f_class(compute))
        return cplx ? CUDA_C_32F : CUDA_R_32F;
    if (compute == CUBLAS_COMPUTE_32I || compute == CUBLAS_COMPUTE_32I_PEDANTIC)
        return CUDA_R_32I;
    return -1;
}

size_t simcublasLt_type_size(cudaDataType type)
{
    return sim_elem_size(type);
}

/* FP8 matmuls (cuBLASLt only): 32F compute and scale, A and B E4M3 or E5M2
 * (not both E5M2); C 16BF, 16F or 32F, D the type of C or, for 16-bit C, an
 * FP8 type. */
bool simlt_fp8_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b, cudaDataType c,
                        cudaDataType d)
{
    bool plain = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC;
    if (!plain || scale != CUDA_R_32F || !sim_elem_fp8(a) || !sim_elem_fp8(b))
        return false;
    if (a == CUDA_R_8F_E5M2 && b == CUDA_R_8F_E5M2)
        return false;
    if (c == CUDA_R_32F)
        return d == CUDA_R_32F;
    if (c != CUDA_R_16BF && c != CUDA_R_16F)
        return false;
    return d == c || sim_elem_fp8(d);
}

/* NVFP4 matmuls (Blackwell, compute capability 10.0 and up): 32F compute and scale, A and B E2M1 (with
 * VEC16_UE4M3 block scales, scale_modes.c), C and D one of 16F, 16BF, 32F,
 * or a 16-bit C and an FP4 D (quantized with VEC16_UE4M3 D_OUT factors). */
bool simlt_fp4_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b, cudaDataType c,
                        cudaDataType d)
{
    bool plain = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC;
    if (!plain || scale != CUDA_R_32F || a != CUDA_R_4F_E2M1 || b != CUDA_R_4F_E2M1 || sim_compute_capability() < 100)
        return false;
    if (d == CUDA_R_4F_E2M1)
        return c == CUDA_R_16F || c == CUDA_R_16BF;
    return d == c && (c == CUDA_R_16F || c == CUDA_R_16BF || c == CUDA_R_32F);
}

/* Integer matmuls of cuBLASLt (the IMMA kernels): exact int8 products summed
 * in 32 bits, alpha and beta int32; the orders they take are problem.c's. */
bool simlt_imma_types_ok(int32_t compute, int32_t scale, cudaDataType a, cudaDataType b, cudaDataType c,
                         cudaDataType d)
{
    bool i32 = compute == CUBLAS_COMPUTE_32I || compute == CUBLAS_COMPUTE_32I_PEDANTIC;
    return i32 && scale == CUDA_R_32I && a == CUDA_R_8I && b == CUDA_R_8I && c == CUDA_R_32I && d == CUDA_R_32I;
}
