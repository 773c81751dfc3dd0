/* IEEE binary16 and bfloat16 conversions, written out so the stand-in needs
 * no compiler support for _Float16/__bf16. Narrowing rounds to nearest even
 * and keeps NaN a NaN, as the GPU's cvt.rn does. */
#include "elem.h"

#include <string.h>

static uint32_t float_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float bits_float(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

float sim_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    if (exp == 0) {
        /* Subnormal halves are exact multiples of 2^-24 in float. */
        float v = (float)mant * 0x1p-24f;
        return sign ? -v : v;
    }
    if (exp == 31)
        return bits_float(sign | 0x7f800000u | (mant << 13));
    return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

/* Shifts sig right by `shift` bits, rounding to nearest even. */
static uint32_t round_shift(uint32_t sig, int shift)
{
    uint32_t kept = sig >> shift, rem = sig & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (kept & 1)))
        kept++;
    return kept;
}

uint16_t sim_float_to_half(float f)
{
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) /* NaN: keep it quiet and non-zero */
        return (uint16_t)(sign | 0x7e00u | ((absx >> 13) & 0x3ffu));
    if (absx == 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u);
    int e = (int)(absx >> 23) - 127;
    uint32_t sig = (absx & 0x7fffffu) | 0x800000u;
    if (e > 15)
        return (uint16_t)(sign | 0x7c00u);
    if (e >= -14) {
        /* A carry out of the mantissa bumps the exponent, up to infinity. */
        uint32_t h = ((uint32_t)(e + 15) << 10) + (round_shift(sig, 13) - 0x400u);
        return (uint16_t)(sign | (h > 0x7c00u ? 0x7c00u : h));
    }
    if (e < -25)
        return sign;
    return (uint16_t)(sign | round_shift(sig, -(e + 1)));
}

float sim_bf16_to_float(uint16_t b)
{
    return bits_float((uint32_t)b << 16);
}

uint16_t sim_float_to_bf16(float f)
{
    uint32_t x = float_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}
