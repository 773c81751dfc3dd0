/* Where block scale factors live (sim_bscale, simlt.h). The factors of a
 * matrix form an outer x blocks array, padded to multiples of 128 x 4 and
 * stored as 512-byte tiles of 128 outer indices x 4 blocks, tiles ordered
 * along the blocks first; inside a tile, outer index r and block c sit at
 * (r % 32) * 16 + (r / 32) * 4 + c. This is the "1D block scaling factors
 * layout" of the cuBLAS documentation (NVIDIA's samples size the tensors
 * the same way; nvmath-python's get_block_scale_offset gives offsets 82 and
 * 593 for (5, 2) and (5, 5) of a 128 x 128 NVFP4 operand, as this does). */
#include "scale.h"

#include <string.h>

/* Hopper's fp32 factors (cuBLAS documentation, "128-element 1D and 128x128
 * 2D Block Scaling For FP8 Data Types", "Scaling factors layouts"), L =
 * ceil(k / 128) blocks along k:
 *   VEC128_32F      outer-major (M-major for A, N-major for B): an outer x L
 *                   array with the outer index contiguous, factor (o, b) at
 *                   b * outer + o;
 *   BLK128x128_32F  K-major: L4 x ceil(outer / 128), L4 = L rounded up to a
 *                   multiple of 4, factor (o, b) at (o / 128) * L4 + b.
 * Assumptions (the documentation gives shapes, not strides): VEC128's
 * leading dimension is exactly m (n), and BLK128x128's column stride is
 * exactly L4 (the documentation only requires a multiple of 4). */
static int64_t f32_index(const sim_bscale *s, int64_t outer, int64_t block)
{
    if (s->blk2d)
        return (outer / 128) * ((s->blocks + 3) / 4 * 4) + block;
    return block * s->outer + outer;
}

int64_t sim_bscale_index(const sim_bscale *s, int64_t outer, int64_t block)
{
    int64_t tiles_across = (s->blocks + 3) / 4;
    int64_t tile = (outer / 128) * tiles_across + block / 4;
    return tile * 512 + (outer % 32) * 16 + ((outer % 128) / 32) * 4 + block % 4;
}

float sim_bscale_at(const sim_bscale *s, int64_t outer, int64_t inner)
{
    if (s->vec == 128) {
        float f;
        memcpy(&f, s->p + 4 * f32_index(s, outer, inner / 128), sizeof f);
        return f;
    }
    uint8_t v = s->p[sim_bscale_index(s, outer, inner / s->vec)];
    return s->vec == 32 ? sim_ue8m0_to_float(v) : sim_ue4m3_to_float(v);
}

int64_t sim_bscale_bytes(const sim_bscale *s, int64_t outer)
{
    if (s->vec == 128)
        return 4 * (s->blk2d ? (outer + 127) / 128 * ((s->blocks + 3) / 4 * 4) : outer * s->blocks);
    return (outer + 127) / 128 * 128 * ((s->blocks + 3) / 4 * 4);
}
