/* The narrow types of Blackwell's block-scaled matmuls: FP4 E2M1 data
 * (sign, 2 exponent bits with bias 1, 1 mantissa bit: 0, 0.5, 1, 1.5, 2, 3,
 * 4, 6; two elements a byte, the even-indexed one in the low nibble, as
 * __nv_fp4x2_e2m1 packs them) and the 8-bit scale factors UE8M0 (an
 * exponent only: 2^(x - 127), 0xff NaN) and UE4M3 (E4M3 without its sign).
 * Widening is exact; narrowing to E2M1 rounds to nearest even and saturates
 * to 6 (cvt.rn.satfinite). */
#include <math.h>

#include "elem.h"

float sim_e2m1_to_float(uint8_t nibble)
{
    static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    float v = mag[nibble & 7];
    return (nibble & 8) ? -v : v;
}

float sim_ue8m0_to_float(uint8_t v)
{
    return v == 0xff ? NAN : ldexpf(1.0f, (int)v - 127);
}

float sim_ue4m3_to_float(uint8_t v)
{
    return sim_e4m3_to_float(v & 0x7f);
}

uint8_t sim_ue8m0_ceil(float x)
{
    if (isnan(x))
        return 0xff;
    if (!(x > 0))
        return 0;
    int e;
    float f = frexpf(x, &e); /* x = f * 2^e, f in [0.5, 1) */
    int code = (f == 0.5f ? e - 1 : e) + 127;
    return (uint8_t)(code < 0 ? 0 : code > 254 ? 254 : code);
}

uint8_t sim_float_to_e2m1(float x)
{
    static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    uint8_t sign = signbit(x) ? 8 : 0;
    float a = fabsf(x);
    if (isnan(x))
        return 7; /* E2M1 has no NaN: the largest magnitude, as satfinite gives */
    uint8_t code = 7;
    for (uint8_t c = 0; c < 7; c++) {
        float mid = (mag[c] + mag[c + 1]) / 2; /* exact: every midpoint is a float */
        if (a < mid || (a == mid && (c & 1) == 0)) {
            code = c;
            break;
        }
    }
    return (uint8_t)(sign | code);
}

uint8_t sim_ue4m3_ceil(float x)
{
    if (isnan(x))
        return 0x7f;
    if (!(x > 0))
        return 0;
    uint8_t code = sim_float_to_e4m3(x);
    if (sim_e4m3_to_float(code) < x && code < 0x7e)
        code++; /* codes of positive E4M3 values grow with the value */
    return code;
}
