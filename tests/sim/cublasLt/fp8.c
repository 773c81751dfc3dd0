/* FP8 conversions (E4M3: bias 7, no infinity, max 448; E5M2: bias 15, max
 * 57344). Narrowing rounds to nearest even and saturates to the largest
 * finite value, as cuBLASLt's FP8 outputs do (cvt.rn.satfinite); NaN stays
 * NaN. Widening is exact. */
#include <math.h>

#include "elem.h"

typedef struct fp8_format {
    int man_bits, bias;
    uint8_t max_code, nan_code;
} fp8_format;

static const fp8_format e4m3 = {3, 7, 0x7e, 0x7f};
static const fp8_format e5m2 = {2, 15, 0x7b, 0x7e};

static float decode(const fp8_format *f, uint8_t v)
{
    int man_mask = (1 << f->man_bits) - 1;
    int exp = (v & 0x7f) >> f->man_bits, man = v & man_mask;
    float sign = (v & 0x80) ? -1.0f : 1.0f;
    bool e5 = f->man_bits == 2;
    if ((v & 0x7f) == f->nan_code || (e5 && exp == 31 && man != 0))
        return NAN;
    if (e5 && exp == 31)
        return sign * INFINITY;
    if (exp == 0)
        return sign * ldexpf((float)man, 1 - f->bias - f->man_bits);
    return sign * ldexpf((float)(man | (1 << f->man_bits)), exp - f->bias - f->man_bits);
}

static uint8_t encode(const fp8_format *f, float x)
{
    if (isnan(x))
        return f->nan_code;
    uint8_t sign = signbit(x) ? 0x80 : 0;
    double a = fabs((double)x);
    int emin = 1 - f->bias, e;
    frexp(a, &e);
    e -= 1; /* a = 1.m * 2^e */
    if (a == 0 || e < emin)
        e = emin; /* subnormal range: quantum 2^(emin - man_bits) */
    /* rint rounds half to even in the default rounding mode. */
    double q = rint(ldexp(a, f->man_bits - e));
    /* Exponent field and implicit bit add up, so a carry into the next
     * binade (q == 2^(man_bits+1)) and subnormal-to-normal both encode. */
    double code = q >= ldexp(1.0, f->man_bits) ? (double)((e - emin) << f->man_bits) + q : q;
    if (code > f->max_code || isinf(x))
        code = f->max_code;
    return (uint8_t)(sign | (uint8_t)code);
}

float sim_e4m3_to_float(uint8_t v)
{
    return decode(&e4m3, v);
}

float sim_e5m2_to_float(uint8_t v)
{
    return decode(&e5m2, v);
}

uint8_t sim_float_to_e4m3(float x)
{
    return encode(&e4m3, x);
}

uint8_t sim_float_to_e5m2(float x)
{
    return encode(&e5m2, x);
}
