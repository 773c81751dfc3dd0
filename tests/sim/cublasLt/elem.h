/* Typed element access for the reference kernels: every supported
 * cudaDataType widens exactly to float or double (real and imaginary parts)
 * and narrows back with round-to-nearest-even, like the GPU's conversions. */
#ifndef SIMLT_ELEM_H
#define SIMLT_ELEM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <library_types.h>

#define SIM_HIDDEN_FN __attribute__((visibility("hidden")))

SIM_HIDDEN_FN size_t sim_elem_size(cudaDataType t);
SIM_HIDDEN_FN bool sim_elem_complex(cudaDataType t);

/* v[0] = real part, v[1] = imaginary part (0 for real types). */
SIM_HIDDEN_FN void sim_load_f32(cudaDataType t, const void *p, int64_t idx, float v[2]);
SIM_HIDDEN_FN void sim_load_f64(cudaDataType t, const void *p, int64_t idx, double v[2]);
SIM_HIDDEN_FN void sim_store_f32(cudaDataType t, void *p, int64_t idx, const float v[2]);
SIM_HIDDEN_FN void sim_store_f64(cudaDataType t, void *p, int64_t idx, const double v[2]);

SIM_HIDDEN_FN float sim_half_to_float(uint16_t h);
SIM_HIDDEN_FN uint16_t sim_float_to_half(float f);
SIM_HIDDEN_FN float sim_bf16_to_float(uint16_t b);
SIM_HIDDEN_FN uint16_t sim_float_to_bf16(float f);

SIM_HIDDEN_FN float sim_e4m3_to_float(uint8_t v);
SIM_HIDDEN_FN float sim_e5m2_to_float(uint8_t v);
SIM_HIDDEN_FN uint8_t sim_float_to_e4m3(float x);
SIM_HIDDEN_FN uint8_t sim_float_to_e5m2(float x);

/* CUDA_R_8F_E4M3 or CUDA_R_8F_E5M2. */
SIM_HIDDEN_FN bool sim_elem_fp8(cudaDataType t);

/* FP4 and the block-scale factor types (fp4.c). An FP4 element is a
 * nibble: sim_elem_size counts it as one byte (the most it occupies) and
 * sim_elem_bits as 4. */
SIM_HIDDEN_FN unsigned sim_elem_bits(cudaDataType t);
SIM_HIDDEN_FN float sim_e2m1_to_float(uint8_t nibble);
SIM_HIDDEN_FN float sim_ue8m0_to_float(uint8_t v);
SIM_HIDDEN_FN float sim_ue4m3_to_float(uint8_t v);
SIM_HIDDEN_FN uint8_t sim_float_to_e2m1(float x);
/* The smallest UE8M0 / UE4M3 code whose value is >= x (0 for x <= 0; the
 * largest finite code when none is). */
SIM_HIDDEN_FN uint8_t sim_ue8m0_ceil(float x);
SIM_HIDDEN_FN uint8_t sim_ue4m3_ceil(float x);

#endif
