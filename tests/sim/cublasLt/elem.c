/* Loads and stores of one element of any supported cudaDataType. Integers
 * are stored rounded to nearest even and saturated (the IMMA outputs and the
 * integer transforms); an FP4 store rewrites its nibble only. */
#include "elem.h"

#include <math.h>

size_t sim_elem_size(cudaDataType t)
{
    switch (t) {
    case CUDA_R_8I: case CUDA_R_8F_E4M3: case CUDA_R_8F_E5M2: case CUDA_R_4F_E2M1: return 1;
    case CUDA_R_16F: case CUDA_R_16BF: case CUDA_C_8I: return 2;
    case CUDA_R_32F: case CUDA_R_32I: return 4;
    case CUDA_R_64F: case CUDA_C_32F: return 8;
    case CUDA_C_64F: return 16;
    default: return 0;
    }
}

unsigned sim_elem_bits(cudaDataType t)
{
    return t == CUDA_R_4F_E2M1 ? 4 : 8 * (unsigned)sim_elem_size(t);
}

static int32_t to_int(double x, double lo, double hi)
{
    double r = nearbyint(x); /* the default rounding mode: to nearest even */
    return isnan(r) ? 0 : r >= hi ? (int32_t)hi : r <= lo ? (int32_t)lo : (int32_t)r;
}

static int32_t to_i32(double x)
{
    return to_int(x, -2147483648.0, 2147483647.0);
}

bool sim_elem_fp8(cudaDataType t)
{
    return t == CUDA_R_8F_E4M3 || t == CUDA_R_8F_E5M2;
}

bool sim_elem_complex(cudaDataType t)
{
    return t == CUDA_C_32F || t == CUDA_C_64F || t == CUDA_C_8I;
}

void sim_load_f32(cudaDataType t, const void *p, int64_t idx, float v[2])
{
    v[1] = 0.0f;
    switch (t) {
    case CUDA_R_16F: v[0] = sim_half_to_float(((const uint16_t *)p)[idx]); break;
    case CUDA_R_16BF: v[0] = sim_bf16_to_float(((const uint16_t *)p)[idx]); break;
    case CUDA_R_32F: v[0] = ((const float *)p)[idx]; break;
    case CUDA_R_64F: v[0] = (float)((const double *)p)[idx]; break;
    case CUDA_R_8I: v[0] = ((const int8_t *)p)[idx]; break;
    case CUDA_R_32I: v[0] = (float)((const int32_t *)p)[idx]; break;
    case CUDA_R_4F_E2M1: v[0] = sim_e2m1_to_float((uint8_t)(((const uint8_t *)p)[idx >> 1] >> ((idx & 1) * 4))); break;
    case CUDA_R_8F_E4M3: v[0] = sim_e4m3_to_float(((const uint8_t *)p)[idx]); break;
    case CUDA_R_8F_E5M2: v[0] = sim_e5m2_to_float(((const uint8_t *)p)[idx]); break;
    case CUDA_C_8I:
        v[0] = ((const int8_t *)p)[2 * idx];
        v[1] = ((const int8_t *)p)[2 * idx + 1];
        break;
    case CUDA_C_32F:
    case CUDA_C_64F: {
        double w[2];
        sim_load_f64(t, p, idx, w);
        v[0] = (float)w[0];
        v[1] = (float)w[1];
        break;
    }
    default: v[0] = NAN; break;
    }
}

void sim_load_f64(cudaDataType t, const void *p, int64_t idx, double v[2])
{
    switch (t) {
    case CUDA_R_64F: v[0] = ((const double *)p)[idx]; v[1] = 0.0; break;
    case CUDA_R_32I: v[0] = ((const int32_t *)p)[idx]; v[1] = 0.0; break;
    case CUDA_C_32F:
        v[0] = ((const float *)p)[2 * idx];
        v[1] = ((const float *)p)[2 * idx + 1];
        break;
    case CUDA_C_64F:
        v[0] = ((const double *)p)[2 * idx];
        v[1] = ((const double *)p)[2 * idx + 1];
        break;
    default: {
        float f[2];
        sim_load_f32(t, p, idx, f);
        v[0] = f[0];
        v[1] = f[1];
        break;
    }
    }
}

void sim_store_f32(cudaDataType t, void *p, int64_t idx, const float v[2])
{
    switch (t) {
    case CUDA_R_16F: ((uint16_t *)p)[idx] = sim_float_to_half(v[0]); break;
    case CUDA_R_16BF: ((uint16_t *)p)[idx] = sim_float_to_bf16(v[0]); break;
    case CUDA_R_32F: ((float *)p)[idx] = v[0]; break;
    case CUDA_R_64F: ((double *)p)[idx] = v[0]; break;
    case CUDA_R_32I: ((int32_t *)p)[idx] = to_i32(v[0]); break;
    case CUDA_R_8I: ((int8_t *)p)[idx] = (int8_t)to_int(v[0], -128.0, 127.0); break;
    case CUDA_R_4F_E2M1: {
        uint8_t *byte = (uint8_t *)p + (idx >> 1);
        int shift = (int)(idx & 1) * 4;
        *byte = (uint8_t)((*byte & ~(0xf << shift)) | (sim_float_to_e2m1(v[0]) << shift));
        break;
    }
    case CUDA_R_8F_E4M3: ((uint8_t *)p)[idx] = sim_float_to_e4m3(v[0]); break;
    case CUDA_R_8F_E5M2: ((uint8_t *)p)[idx] = sim_float_to_e5m2(v[0]); break;
    case CUDA_C_32F:
        ((float *)p)[2 * idx] = v[0];
        ((float *)p)[2 * idx + 1] = v[1];
        break;
    case CUDA_C_64F:
        ((double *)p)[2 * idx] = v[0];
        ((double *)p)[2 * idx + 1] = v[1];
        break;
    default: break;
    }
}

void sim_store_f64(cudaDataType t, void *p, int64_t idx, const double v[2])
{
    switch (t) {
    case CUDA_R_64F: ((double *)p)[idx] = v[0]; break;
    case CUDA_R_32I: ((int32_t *)p)[idx] = to_i32(v[0]); break;
    case CUDA_C_64F:
        ((double *)p)[2 * idx] = v[0];
        ((double *)p)[2 * idx + 1] = v[1];
        break;
    default: {
        float f[2] = {(float)v[0], (float)v[1]};
        sim_store_f32(t, p, idx, f);
        break;
    }
    }
}
