/* ATen's tiled transpose copy (aten/src/ATen/native/cuda/Copy.cu,
 * maybe_tiled_transpose_copy): what `.contiguous()` / `copy_` launches for
 * a 2-D same-type copy whose output is the input transposed once the
 * tensor is big enough (4 MiB, or 256 KiB for 1- and 2-byte types whose
 * shape and pointers allow 16-byte accesses); smaller ones take the
 * TensorIterator copy (abi.h). The one place its layout lives: the
 * stand-in's twin (tests/sim/aten/tiled.c) and the preload's decoder
 * (preload/aten/tiled.c) both read it. Checked on torch 2.15.0.
 *
 *   transpose_copy_tiled_kernel<T, vec, access, tile, grid_stride>
 *     (const T* src, T* dst, int64 width, int64 height,
 *      int64 src_pitch, int64 dst_pitch)
 *
 * In T units, src is `height` rows of `width` (row pitch src_pitch) and dst
 * its transpose, `width` rows of `height` (pitch dst_pitch). T is the
 * element (u8, u16, u32, u64; vec 1, access 1, tile 32), or, vectorized,
 * a 32-bit word of `vec` elements (vec 4: bytes, vec 2: halves, access 4,
 * tile 32; vec 1: 4-byte elements, access 4, tile 64) and then each T row
 * is `vec` element rows: element sizes are vec x those of T units.
 * Blocks: (32 / access, 8 x access) threads; the grid's x tiles width,
 * its y tiles height, or strides over it when grid_stride. */
#ifndef TF_ATEN_ABI_TILED_H
#define TF_ATEN_ABI_TILED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ATEN_TILED_NAME "transpose_copy_tiled_kernel<"
#define ATEN_TILED_NPARAMS 6
#define ATEN_TILED_P_SRC 0
#define ATEN_TILED_P_DST 1
#define ATEN_TILED_P_WIDTH 2
#define ATEN_TILED_P_HEIGHT 3
#define ATEN_TILED_P_SRC_PITCH 4
#define ATEN_TILED_P_DST_PITCH 5
#define ATEN_TILED_PARAM_BYTES 8 /* every parameter: a pointer or an int64 */
#define ATEN_TILED_WARP 32       /* kTransposeTile: a tile row's threads x access */
#define ATEN_TILED_ROWS 8        /* kTransposeRows */

typedef struct aten_tiled {
    unsigned unit;    /* sizeof(T) */
    unsigned vec;     /* elements a T holds (1, 2, 4) */
    unsigned access;  /* T a thread moves at once (1, 4) */
    unsigned tile;    /* T units a tile side */
    bool grid_stride; /* grid.y strides over the tile rows */
    unsigned elem;    /* bytes an element: unit / vec */
} aten_tiled;

static inline bool aten_tiled_unit(const char *s, size_t n, unsigned *unit)
{
    static const struct { const char *name; unsigned size; } units[] = {
        { "unsigned char", 1 }, { "unsigned short", 2 }, { "unsigned int", 4 }, { "unsigned long", 8 },
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == n && strncmp(s, units[i].name, n) == 0) {
            *unit = units[i].size;
            return true;
        }
    return false;
}

/* The instantiation a demangled name is, when it is one torch 2.15.0 has
 * (the combinations above, nothing else). */
static inline bool aten_tiled_parse(const char *demangled, aten_tiled *t)
{
    const char *s = demangled ? strstr(demangled, ATEN_TILED_NAME) : NULL;
    if (!s || !strstr(demangled, "at::native::"))
        return false;
    s += strlen(ATEN_TILED_NAME);
    const char *comma = strchr(s, ',');
    if (!comma || !aten_tiled_unit(s, (size_t)(comma - s), &t->unit))
        return false;
    char *end;
    long v[3];
    s = comma + 1;
    for (int i = 0; i < 3; i++) {
        v[i] = strtol(s, &end, 10);
        if (end == s || *end != ',')
            return false;
        s = end + 1;
    }
    while (*s == ' ')
        s++;
    if (strncmp(s, "true>", 5) == 0)
        t->grid_stride = true;
    else if (strncmp(s, "false>", 6) == 0)
        t->grid_stride = false;
    else
        return false;
    t->vec = (unsigned)v[0], t->access = (unsigned)v[1], t->tile = (unsigned)v[2];
    bool scalar = t->vec == 1 && t->access == 1 && t->tile == ATEN_TILED_WARP;
    bool narrow = t->unit == 4 && (t->vec == 2 || t->vec == 4) && t->access == 4 && t->tile == ATEN_TILED_WARP;
    bool word = t->unit == 4 && t->vec == 1 && t->access == 4 && t->tile == 2 * ATEN_TILED_WARP;
    if (!scalar && !narrow && !word)
        return false;
    t->elem = t->unit / t->vec;
    return true;
}

#endif
