/* Device kernels shared by the CUDA programs. Each has a CPU twin in
 * twins/kernels.c under its mangled name (see `nm` on a program), and the
 * transposes have rules in tests/e2e/rules/kernels.rules.
 *
 * Transposes are row-major C: out[c * rows + r] = in[r * cols + c]. */
#ifndef TF_PROGRAMS_KERNELS_CUH
#define TF_PROGRAMS_KERNELS_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 16

/* _Z15transpose_naivePfPKfii: one thread per element, 2-D grid. */
__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* _Z15transpose_tiledPfPKfii: TILE x TILE blocks through shared memory. */
__global__ void transpose_tiled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int r = blockIdx.y * TILE + threadIdx.y;
    int c = blockIdx.x * TILE + threadIdx.x;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    int orow = blockIdx.x * TILE + threadIdx.y; /* row of out = column of in */
    int ocol = blockIdx.y * TILE + threadIdx.x;
    if (orow < cols && ocol < rows) out[(size_t)orow * rows + ocol] = tile[threadIdx.x][threadIdx.y];
}

/* _Z17transpose_batchedPfPKfiii: blockIdx.z walks the batch, dense strides. */
__global__ void transpose_batched(float *out, const float *in, int rows, int cols, int batch)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    size_t b = blockIdx.z, plane = (size_t)rows * cols;
    if (r < rows && c < cols && (int)b < batch) out[b * plane + (size_t)c * rows + r] = in[b * plane + (size_t)r * cols + c];
}

/* _Z14transpose_bf16P13__nv_bfloat16PKS_ii */
__global__ void transpose_bf16(__nv_bfloat16 *out, const __nv_bfloat16 *in, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* _Z14transpose_halfP6__halfPKS_ii */
__global__ void transpose_half(__half *out, const __half *in, int rows, int cols)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* _Z9scale_f32Pfif: x[i] *= s, 1-D grid. Not a transpose: an unknown launch. */
__global__ void scale_f32(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

static inline dim3 grid2d(int rows, int cols, int batch = 1)
{
    return dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE, batch);
}
#endif
