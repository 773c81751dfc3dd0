/* CPU twin of learn_offset_calc.cu's copy kernel, laid out as ATen's strided
 * copy (elementwise_kernel with an OffsetCalculator<2> closure): thread i
 * copies the element whose coordinates i's digits over sizes[0..dims) give
 * (dimension 0 fastest), byte strides per operand. Slots beyond dims are
 * never read, as on the GPU. */
#include <stdint.h>
#include <string.h>

#include "simcuda.h"

#define MAX_DIMS 25

typedef struct int_divider { uint32_t divisor, m1, shift; } int_divider;
typedef struct copy_closure {
    int32_t dims;
    int_divider sizes[MAX_DIMS];
    uint32_t strides[MAX_DIMS][2];
    char *data[2];
    char functor_and_pad[8];
} copy_closure;
_Static_assert(sizeof(copy_closure) == 528, "ATen's closure is 528 bytes");

SIMCUDA_TWIN(_Z23elementwise_offset_copyi12copy_closure, 4, 528)
{
    int n = *(int *)params[0];
    const copy_closure *c = params[1];
    uint64_t threads = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2] * launch->block[0] *
                       launch->block[1] * launch->block[2];
    for (uint64_t i = 0; i < threads && i < (uint64_t)n; i++) {
        uint32_t rem = (uint32_t)i, out = 0, in = 0;
        for (int d = 0; d < c->dims && d < MAX_DIMS; d++) {
            uint32_t q = rem / c->sizes[d].divisor, idx = rem - q * c->sizes[d].divisor;
            rem = q;
            out += idx * c->strides[d][0];
            in += idx * c->strides[d][1];
        }
        memcpy(c->data[0] + out, c->data[1] + in, 4);
    }
}
