/* ATen's element types by name (kernel.h's aten_type_size): the one
 * table every name parser reads. */
#include <string.h>

#include "aten/kernel.h"

static const struct { const char *name, *short_name; uint32_t size; } types[] = {
    { "float", "f32", 4 },
    { "double", "f64", 8 },
    { "c10::Half", "f16", 2 },
    { "c10::BFloat16", "bf16", 2 },
    { "bool", "bool", 1 },
    { "signed char", "i8", 1 },
    { "unsigned char", "u8", 1 },
    { "short", "i16", 2 },
    { "unsigned short", "u16", 2 },
    { "int", "i32", 4 },
    { "unsigned int", "u32", 4 },
    { "long", "i64", 8 },
    { "unsigned long", "u64", 8 },
    { "c10::complex<c10::Half>", "c32", 4 },
    { "c10::complex<float>", "c64", 8 },
    { "c10::complex<double>", "c128", 16 },
    { "c10::Float8_e4m3fn", "f8e4m3", 1 },
    { "c10::Float8_e5m2", "f8e5m2", 1 },
    { "c10::Float8_e4m3fnuz", "f8e4m3fnuz", 1 },
    { "c10::Float8_e5m2fnuz", "f8e5m2fnuz", 1 },
    { "c10::Float8_e8m0fnu", "f8e8m0", 1 },
};

uint32_t aten_type_size(const char *name, size_t len, const char **short_name)
{
    while (len && name[0] == ' ')
        name++, len--;
    while (len && name[len - 1] == ' ')
        len--;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == len && memcmp(types[i].name, name, len) == 0) {
            if (short_name)
                *short_name = types[i].short_name;
            return types[i].size;
        }
    return 0;
}
