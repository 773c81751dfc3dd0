/* ATen's element types, by the names its kernels' demangled names use and
 * by c10::ScalarType's numbers (what a TensorIterator's dtypes arrays
 * hold), with ATen's conversions between them, bit for bit:
 *   - half and bfloat16 widen exactly to float and narrow from float with
 *     round-to-nearest-even; from double or an integer they go through
 *     float first, as c10::Half(float) and c10::BFloat16(float) do;
 *   - NaN narrows to c10's quiet NaN (sign kept; half 0x7E00, bf16 0x7FC0);
 *   - integers convert to floating types directly (int64 -> float rounds
 *     once), floating types to integers by truncation through int64 (as
 *     c10::static_cast_with_inter_type does for uint8), bool is "not 0".
 * Header-only: every family includes it. */
#ifndef ATEN_DTYPE_H
#define ATEN_DTYPE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef enum aten_dtype {
    ATEN_NONE = -1,
    ATEN_BYTE = 0, ATEN_CHAR = 1, ATEN_SHORT = 2, ATEN_INT = 3, ATEN_LONG = 4,
    ATEN_HALF = 5, ATEN_FLOAT = 6, ATEN_DOUBLE = 7,
    ATEN_COMPLEX_HALF = 8, ATEN_COMPLEX_FLOAT = 9, ATEN_COMPLEX_DOUBLE = 10,
    ATEN_BOOL = 11, ATEN_BFLOAT16 = 15,
    ATEN_FLOAT8_E5M2 = 23, ATEN_FLOAT8_E4M3FN = 24,
    ATEN_UINT16 = 27, ATEN_UINT32 = 28, ATEN_UINT64 = 29,
} aten_dtype;

/* Longest names first: a name must not be taken for its prefix. */
static const struct aten_dtype_name { const char *name; aten_dtype type; unsigned size; } aten_dtype_names[] = {
    {"c10::complex<c10::Half>", ATEN_COMPLEX_HALF, 4},
    {"c10::complex<float>", ATEN_COMPLEX_FLOAT, 8},
    {"c10::complex<double>", ATEN_COMPLEX_DOUBLE, 16},
    {"c10::Float8_e4m3fn", ATEN_FLOAT8_E4M3FN, 1},
    {"c10::Float8_e5m2", ATEN_FLOAT8_E5M2, 1},
    {"c10::BFloat16", ATEN_BFLOAT16, 2},
    {"c10::Half", ATEN_HALF, 2},
    {"unsigned short", ATEN_UINT16, 2},
    {"unsigned char", ATEN_BYTE, 1},
    {"unsigned int", ATEN_UINT32, 4},
    {"unsigned long", ATEN_UINT64, 8},
    {"signed char", ATEN_CHAR, 1},
    {"double", ATEN_DOUBLE, 8},
    {"float", ATEN_FLOAT, 4},
    {"short", ATEN_SHORT, 2},
    {"long", ATEN_LONG, 8},
    {"bool", ATEN_BOOL, 1},
    {"int", ATEN_INT, 4},
};

/* The type named at s (whole word), or ATEN_NONE; *rest gets what follows. */
static inline aten_dtype aten_dtype_parse(const char *s, const char **rest)
{
    for (size_t i = 0; i < sizeof aten_dtype_names / sizeof *aten_dtype_names; i++) {
        size_t n = strlen(aten_dtype_names[i].name);
        char next = s[n];
        bool word_ends = !(next == '_' || next == ':' || (next >= 'a' && next <= 'z') ||
                           (next >= 'A' && next <= 'Z') || (next >= '0' && next <= '9'));
        if (strncmp(s, aten_dtype_names[i].name, n) == 0 && word_ends) {
            if (rest)
                *rest = s + n;
            return aten_dtype_names[i].type;
        }
    }
    return ATEN_NONE;
}

static inline size_t aten_dtype_size(aten_dtype t)
{
    for (size_t i = 0; i < sizeof aten_dtype_names / sizeof *aten_dtype_names; i++)
        if (aten_dtype_names[i].type == t)
            return aten_dtype_names[i].size;
    return 0;
}

static inline const char *aten_dtype_name(aten_dtype t)
{
    for (size_t i = 0; i < sizeof aten_dtype_names / sizeof *aten_dtype_names; i++)
        if (aten_dtype_names[i].type == t)
            return aten_dtype_names[i].name;
    return "?";
}

static inline bool aten_dtype_is_float(aten_dtype t)
{
    return t == ATEN_HALF || t == ATEN_FLOAT || t == ATEN_DOUBLE || t == ATEN_BFLOAT16;
}

static inline bool aten_dtype_is_int(aten_dtype t)
{
    return t == ATEN_BYTE || t == ATEN_CHAR || t == ATEN_SHORT || t == ATEN_INT || t == ATEN_LONG ||
           t == ATEN_BOOL || t == ATEN_UINT16 || t == ATEN_UINT32 || t == ATEN_UINT64;
}

/* The types convert() below handles (complex and float8 only copy as is). */
static inline bool aten_dtype_is_real(aten_dtype t) { return aten_dtype_is_float(t) || aten_dtype_is_int(t); }

/* ---- half and bfloat16 ---- */

static inline float aten_bits_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t aten_float_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static inline float aten_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)
        return aten_bits_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) /* zero or subnormal: man * 2^-24, exact in float */
        return aten_bits_float(sign) + (sign ? -1.0f : 1.0f) * ldexpf((float)man, -24);
    return aten_bits_float(sign | ((exp + 112) << 23) | (man << 13));
}

static inline uint16_t aten_float_to_half(float f)
{
    uint32_t u = aten_float_bits(f), sign = (u >> 16) & 0x8000;
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00);
    if (a >= 0x477ff000u) /* rounds to >= 65520: infinity */
        return (uint16_t)(sign | 0x7c00);
    if (a < 0x38800000u) { /* below 2^-14: subnormal, step 2^-24 */
        float m = aten_bits_float(a) * 16777216.0f; /* exact: scaled by 2^24 */
        return (uint16_t)(sign | (uint32_t)nearbyintf(m)); /* ties to even (default mode) */
    }
    uint32_t r = a + 0xfffu + ((a >> 13) & 1); /* round mantissa to 10 bits, ties to even */
    return (uint16_t)(sign | (((r >> 23) - 112) << 10 | ((r >> 13) & 0x3ff)));
}

static inline float aten_bf16_to_float(uint16_t b) { return aten_bits_float((uint32_t)b << 16); }

static inline uint16_t aten_float_to_bf16(float f)
{
    uint32_t u = aten_float_bits(f);
    if (isnan(f))
        return (uint16_t)(((u >> 16) & 0x8000) | 0x7fc0);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

/* ---- values: integers exactly as int64/uint64, floating types as double ---- */

typedef struct aten_value {
    bool is_int;
    bool is_double; /* a double's value (else float-exact when floating) */
    int64_t i;      /* integers; uint64 values above INT64_MAX wrap */
    double d;       /* floating types */
} aten_value;

static inline aten_value aten_load(aten_dtype t, const void *p)
{
    aten_value v = {0};
    union { int8_t i8; uint8_t u8; int16_t i16; uint16_t u16; int32_t i32; uint32_t u32; int64_t i64;
            uint64_t u64; float f; double d; } x;
    memcpy(&x, p, aten_dtype_size(t) ? aten_dtype_size(t) : 1);
    v.is_int = aten_dtype_is_int(t);
    switch (t) {
    case ATEN_BOOL: v.i = x.u8 != 0; break;
    case ATEN_BYTE: v.i = x.u8; break;
    case ATEN_CHAR: v.i = x.i8; break;
    case ATEN_SHORT: v.i = x.i16; break;
    case ATEN_UINT16: v.i = x.u16; break;
    case ATEN_INT: v.i = x.i32; break;
    case ATEN_UINT32: v.i = x.u32; break;
    case ATEN_LONG: v.i = x.i64; break;
    case ATEN_UINT64: v.i = (int64_t)x.u64; break;
    case ATEN_HALF: v.d = aten_half_to_float(x.u16); break;
    case ATEN_BFLOAT16: v.d = aten_bf16_to_float(x.u16); break;
    case ATEN_FLOAT: v.d = x.f; break;
    case ATEN_DOUBLE: v.d = x.d; v.is_double = true; break;
    default: break;
    }
    return v;
}

/* float as ATen has it: an integer rounds once, a double once. */
static inline float aten_value_float(aten_value v) { return v.is_int ? (float)v.i : (float)v.d; }
static inline double aten_value_double(aten_value v) { return v.is_int ? (double)v.i : v.d; }

/* Truncation through int64; NaN and values out of int64's range give
 * int64's minimum, what x86's conversion gives (C leaves them undefined). */
static inline int64_t aten_value_int(aten_value v)
{
    if (v.is_int)
        return v.i;
    if (!(v.d >= -9223372036854775808.0 && v.d < 9223372036854775808.0))
        return INT64_MIN;
    return (int64_t)v.d;
}

static inline void aten_store(aten_dtype t, void *p, aten_value v)
{
    union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; float f; double d; } x = {0};
    switch (t) {
    case ATEN_BOOL: x.u8 = v.is_int ? v.i != 0 : v.d != 0; break;
    case ATEN_BYTE: case ATEN_CHAR: x.u8 = (uint8_t)aten_value_int(v); break;
    case ATEN_SHORT: case ATEN_UINT16: x.u16 = (uint16_t)aten_value_int(v); break;
    case ATEN_INT: case ATEN_UINT32: x.u32 = (uint32_t)aten_value_int(v); break;
    case ATEN_LONG: case ATEN_UINT64: x.u64 = (uint64_t)aten_value_int(v); break;
    case ATEN_HALF: x.u16 = aten_float_to_half(aten_value_float(v)); break;
    case ATEN_BFLOAT16: x.u16 = aten_float_to_bf16(aten_value_float(v)); break;
    case ATEN_FLOAT: x.f = aten_value_float(v); break;
    case ATEN_DOUBLE: x.d = aten_value_double(v); break;
    default: return;
    }
    memcpy(p, &x, aten_dtype_size(t));
}

/* One element from src's type to dst's, as ATen's casting copy does; the
 * same type (and any type ATen only copies) is copied as is. */
static inline void aten_convert(aten_dtype dst, void *d, aten_dtype src, const void *s)
{
    if (dst == src || !aten_dtype_is_real(dst) || !aten_dtype_is_real(src)) {
        if (dst == src)
            memcpy(d, s, aten_dtype_size(dst));
        return;
    }
    aten_store(dst, d, aten_load(src, s));
}

/* Opmath: what ATen computes a type in (float for half and bfloat16). */
static inline float aten_load_float(aten_dtype t, const void *p) { return aten_value_float(aten_load(t, p)); }
static inline double aten_load_double(aten_dtype t, const void *p) { return aten_value_double(aten_load(t, p)); }
static inline void aten_store_float(aten_dtype t, void *p, float f)
{
    aten_store(t, p, (aten_value){.d = f});
}
static inline void aten_store_double(aten_dtype t, void *p, double d)
{
    aten_store(t, p, (aten_value){.d = d, .is_double = true});
}

#endif
