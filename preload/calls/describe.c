/* Argument translation shared by the hooks. */
#include <string.h>

#include "calls/describe.h"
#include "tables/hooks.h"
#include "streams/replay.h"

static double half_to_double(uint16_t h)
{
    _Float16 v;
    memcpy(&v, &h, sizeof v);
    return (double)v;
}

static uint16_t double_to_half(double d)
{
    _Float16 v = (_Float16)d;
    uint16_t h;
    memcpy(&h, &v, sizeof h);
    return h;
}

tf_scale pl_scalar_scale(pl_stype t, const pl_scalar *s, bool host)
{
    tf_scale r = { .host = host };
    if (!host)
        return r;
    switch (t) {
    case TF_S_F16: r.re = half_to_double(s->h); break;
    case TF_S_F32: r.re = s->f; break;
    case TF_S_F64: r.re = s->d; break;
    case TF_S_C32: r.re = s->c[0]; r.im = s->c[1]; break;
    case TF_S_C64: r.re = s->z[0]; r.im = s->z[1]; break;
    case TF_S_I32: r.re = s->i; break;
    case TF_S_NONE: r.host = false; break;
    }
    return r;
}

void pl_scalar_mul(pl_stype t, pl_scalar *s, double mul)
{
    switch (t) {
    case TF_S_F16: s->h = double_to_half(half_to_double(s->h) * mul); break;
    case TF_S_F32: s->f = (float)(s->f * mul); break;
    case TF_S_F64: s->d *= mul; break;
    case TF_S_C32: s->c[0] = (float)(s->c[0] * mul); s->c[1] = (float)(s->c[1] * mul); break;
    case TF_S_C64: s->z[0] *= mul; s->z[1] *= mul; break;
    case TF_S_I32: s->i = (int32_t)(s->i * mul); break;
    case TF_S_NONE: break;
    }
}

void pl_access_scalars(tf_access *a, pl_stype t, const void *alpha, const void *beta)
{
    size_t n = t == TF_S_NONE ? pl_stype_size(TF_S_C64) : pl_stype_size(t);
    if (alpha)
        tf_access_read(a, pl_bytes(alpha, n));
    if (beta)
        tf_access_read(a, pl_bytes(beta, n));
}

#define TF_DT(t, size, name, cplx) [t] = { size, name, cplx }
const pl_dtype_info pl_dtypes[PL_NDTYPES] = {
    TF_DT(CUDA_R_16F, 2, "f16", false),   TF_DT(CUDA_C_16F, 4, "c32h", true),
    TF_DT(CUDA_R_16BF, 2, "bf16", false), TF_DT(CUDA_C_16BF, 4, "c32bf", true),
    TF_DT(CUDA_R_32F, 4, "f32", false),   TF_DT(CUDA_C_32F, 8, "c64", true),
    TF_DT(CUDA_R_64F, 8, "f64", false),   TF_DT(CUDA_C_64F, 16, "c128", true),
    TF_DT(CUDA_R_8I, 1, "i8", false),     TF_DT(CUDA_C_8I, 2, "c16i", true),
    TF_DT(CUDA_R_8U, 1, "u8", false),     TF_DT(CUDA_R_32I, 4, "i32", false),
    TF_DT(CUDA_R_8F_E4M3, 1, "e4m3", false), TF_DT(CUDA_R_8F_E5M2, 1, "e5m2", false),
};
#undef TF_DT

/* The rows of the cublasGemmEx documentation's table of supported
 * (compute, A/B, C) types for the real (R) and complex (C) forms. */
static bool ex_32f_types(bool plain, cudaDataType ab, cudaDataType c)
{
    if (ab == CUDA_R_32F || ab == CUDA_C_32F)
        return c == ab;
    if (!plain)
        return false;
    if (ab == CUDA_R_16F || ab == CUDA_R_16BF)
        return c == ab || c == CUDA_R_32F;
    return (ab == CUDA_R_8I && c == CUDA_R_32F) || (ab == CUDA_C_8I && c == CUDA_C_32F);
}

bool pl_gemm_ex_types_valid(cublasComputeType_t c, cudaDataType at, cudaDataType bt, cudaDataType ct)
{
    if (at != bt)
        return false;
    switch (c) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        return at == CUDA_R_16F && ct == CUDA_R_16F;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
        return at == CUDA_R_8I && ct == CUDA_R_32I;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
        return (at == CUDA_R_64F || at == CUDA_C_64F) && ct == at;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
        return ex_32f_types(true, at, ct);
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        return ex_32f_types(false, at, ct);
    default:
        return false;
    }
}

/* As the cublasGemmEx documentation tabulates it. */
pl_stype pl_compute_stype(cublasComputeType_t c, cudaDataType ctype)
{
    switch (c) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
        return TF_S_F16;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
        return pl_cuda_dtype_complex(ctype) ? TF_S_C32 : TF_S_F32;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
        return pl_cuda_dtype_complex(ctype) ? TF_S_C64 : TF_S_F64;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
        return ctype == CUDA_R_32I ? TF_S_I32 : TF_S_F32;
    default:
        return TF_S_NONE;
    }
}

/* cuBLAS addresses a vector with a negative increment from the same base. */
tf_view pl_vector(const void *p, uint32_t elem, int64_t len, int64_t inc)
{
    int64_t step = inc < 0 ? -inc : inc;
    if (step <= 1)
        return pl_matrix(p, elem, len, 1, len > 0 ? len : 1, 1, 0);
    return pl_matrix(p, elem, 1, len, step, 1, 0);
}

tf_range pl_bytes(const void *p, uint64_t n)
{
    return (tf_range){ TF_ADDR(p), TF_ADDR(p) + n };
}

tf_view pl_pitched(uint64_t addr, size_t pitch, size_t width, size_t height)
{
    return pl_matrix((const void *)(uintptr_t)addr, 1, (int64_t)width, (int64_t)height, (int64_t)pitch, 1, 0);
}
