/* CPU twins of tests/programs/kernels.cuh and of the driver-loaded module
 * (modules/nvf_transpose.cu): each computes exactly what its kernel computes
 * for the grid and block it is launched with. */
#include <stdint.h>
#include <string.h>

#include "simcuda.h"

#define TILE 16
#define ARG(type, i) (*(type *)params[i])

/* Calls body(x, y, z) for every global thread index of the launch. */
#define FOR_THREADS(l, x, y, z)                                                  \
    for (unsigned z = 0; z < (l)->grid[2] * (l)->block[2]; z++)                  \
        for (unsigned y = 0; y < (l)->grid[1] * (l)->block[1]; y++)              \
            for (unsigned x = 0; x < (l)->grid[0] * (l)->block[0]; x++)

/* out[c*rows + r] = in[r*cols + c] for elem-byte elements, every thread. */
static void naive(const simcuda_launch *l, void **params, size_t elem, int batch)
{
    unsigned char *out = ARG(unsigned char *, 0);
    const unsigned char *in = ARG(const unsigned char *, 1);
    int rows = ARG(int, 2), cols = ARG(int, 3);
    size_t plane = (size_t)rows * cols;
    FOR_THREADS(l, c, r, b) {
        /* blockDim.z is 1 in every launch of these kernels: z is blockIdx.z */
        if ((int)r < rows && (int)c < cols && (int)b < batch)
            memcpy(out + (b * plane + (size_t)c * rows + r) * elem, in + (b * plane + (size_t)r * cols + c) * elem, elem);
    }
}

SIMCUDA_TWIN(_Z15transpose_naivePfPKfii, 8, 8, 4, 4) { naive(launch, params, 4, 1); }
SIMCUDA_TWIN(_Z14transpose_bf16P13__nv_bfloat16PKS_ii, 8, 8, 4, 4) { naive(launch, params, 2, 1); }
SIMCUDA_TWIN(_Z14transpose_halfP6__halfPKS_ii, 8, 8, 4, 4) { naive(launch, params, 2, 1); }
SIMCUDA_TWIN(_Z17transpose_batchedPfPKfiii, 8, 8, 4, 4, 4) { naive(launch, params, 4, ARG(int, 4)); }

/* What the transposes read (for the stand-in's race detector): the input,
 * batch planes of rows x cols elements. */
static size_t reads_in(void **params, size_t elem, int batch, simcuda_range *out, size_t max)
{
    if (!max)
        return 0;
    out[0] = (simcuda_range){ARG(const void *, 1), (size_t)ARG(int, 2) * (size_t)ARG(int, 3) * elem * (size_t)batch};
    return 1;
}
SIMCUDA_READS(_Z15transpose_naivePfPKfii) { (void)launch; return reads_in(params, 4, 1, out, max); }
SIMCUDA_READS(_Z14transpose_bf16P13__nv_bfloat16PKS_ii) { (void)launch; return reads_in(params, 2, 1, out, max); }
SIMCUDA_READS(_Z14transpose_halfP6__halfPKS_ii) { (void)launch; return reads_in(params, 2, 1, out, max); }
SIMCUDA_READS(_Z17transpose_batchedPfPKfiii) { (void)launch; return reads_in(params, 4, ARG(int, 4), out, max); }
SIMCUDA_READS(_Z15transpose_tiledPfPKfii) { (void)launch; return reads_in(params, 4, 1, out, max); }

/* Block by block: load the tile (phase 1), __syncthreads, write it (phase 2). */
SIMCUDA_TWIN(_Z15transpose_tiledPfPKfii, 8, 8, 4, 4)
{
    float *out = ARG(float *, 0);
    const float *in = ARG(const float *, 1);
    int rows = ARG(int, 2), cols = ARG(int, 3);
    float tile[TILE][TILE + 1];
    for (unsigned by = 0; by < launch->grid[1]; by++)
        for (unsigned bx = 0; bx < launch->grid[0]; bx++) {
            for (unsigned ty = 0; ty < launch->block[1]; ty++)
                for (unsigned tx = 0; tx < launch->block[0]; tx++) {
                    int r = (int)(by * TILE + ty), c = (int)(bx * TILE + tx);
                    if (r < rows && c < cols) tile[ty][tx] = in[(size_t)r * cols + c];
                }
            for (unsigned ty = 0; ty < launch->block[1]; ty++)
                for (unsigned tx = 0; tx < launch->block[0]; tx++) {
                    int orow = (int)(bx * TILE + ty), ocol = (int)(by * TILE + tx);
                    if (orow < cols && ocol < rows) out[(size_t)orow * rows + ocol] = tile[tx][ty];
                }
        }
}

SIMCUDA_READS(_Z9scale_f32Pfif)
{
    (void)launch;
    if (!max)
        return 0;
    out[0] = (simcuda_range){ARG(const float *, 0), (size_t)ARG(int, 1) * sizeof(float)};
    return 1;
}

SIMCUDA_TWIN(_Z9scale_f32Pfif, 8, 4, 4)
{
    float *x = ARG(float *, 0);
    int n = ARG(int, 1);
    float s = ARG(float, 2);
    FOR_THREADS(launch, i, y, z) {
        if (y == 0 && z == 0 && (int)i < n) x[i] *= s;
    }
}

/* nvFuser-style tensor argument, passed by value (40 bytes). */
typedef struct nvf_tensor { float *data; int64_t size[2]; int64_t stride[2]; } nvf_tensor;

/* CudaCodeGen::kernel1(Tensor<float,2,2> T0, Tensor<float,2,2> T1):
 * T1[c, r] = T0[r, c], one thread per element of T0, 1-D grid. */
SIMCUDA_TWIN(_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1_, 40, 40)
{
    nvf_tensor t0 = ARG(nvf_tensor, 0), t1 = ARG(nvf_tensor, 1);
    int64_t n = t0.size[0] * t0.size[1];
    FOR_THREADS(launch, i, y, z) {
        if (y || z || (int64_t)i >= n) continue;
        int64_t r = (int64_t)i / t0.size[1], c = (int64_t)i % t0.size[1];
        t1.data[c * t1.stride[0] + r * t1.stride[1]] = t0.data[r * t0.stride[0] + c * t0.stride[1]];
    }
}
