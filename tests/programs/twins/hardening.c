/* CPU twins of the kernels of tests/programs/hardening.cu. */
#include <string.h>

#include "simcuda.h"

/* transpose_packed(packed_args): one 25-byte parameter, out at byte 1, in
 * at 9, rows at 17, cols at 21; out[c*rows + r] = in[r*cols + c]. */
SIMCUDA_TWIN(_Z16transpose_packed11packed_args, 25)
{
    const unsigned char *b = params[0];
    float *out;
    const float *in;
    int rows, cols;
    memcpy(&out, b + 1, sizeof out);
    memcpy(&in, b + 9, sizeof in);
    memcpy(&rows, b + 17, sizeof rows);
    memcpy(&cols, b + 21, sizeof cols);
    for (unsigned y = 0; y < launch->grid[1] * launch->block[1]; y++)
        for (unsigned x = 0; x < launch->grid[0] * launch->block[0]; x++)
            if ((int)y < rows && (int)x < cols)
                out[(size_t)x * rows + y] = in[(size_t)y * cols + x];
}
