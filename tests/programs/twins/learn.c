/* CPU twins of the kernels transfold has to learn (learn_copy.cuh,
 * learn_adv.cu, modules/learn_*.cu): each computes exactly what its kernel
 * computes for the grid and block it is launched with. */
#include <stdint.h>
#include <string.h>

#include "simcuda.h"

#define ARG(type, i) (*(type *)params[i])
#define THREADS(l) ((uint64_t)(l)->grid[0] * (l)->grid[1] * (l)->grid[2] * (l)->block[0] * (l)->block[1] * (l)->block[2])

typedef struct copy_closure {
    char *data[2];
    int64_t sizes[3];
    int64_t strides[2][3];
    int32_t ndim, pad;
} copy_closure;

/* elementwise_copy(int n, copy_closure c): thread i copies logical element i. */
SIMCUDA_TWIN(_Z16elementwise_copyi12copy_closure, 4, 96)
{
    int n = ARG(int, 0);
    copy_closure c = ARG(copy_closure, 1);
    for (uint64_t i = 0; i < THREADS(launch) && i < (uint64_t)n; i++) {
        int64_t rem = (int64_t)i, out = 0, in = 0;
        for (int d = c.ndim - 1; d >= 0; d--) {
            int64_t idx = rem % c.sizes[d];
            rem /= c.sizes[d];
            out += idx * c.strides[0][d];
            in += idx * c.strides[1][d];
        }
        memcpy(c.data[0] + out, c.data[1] + in, 4);
    }
}

/* Every (r, c) a 2-D launch's threads reach: c from x, r from y. */
#define FOR_RC(l, r, c)                                                  \
    for (unsigned r = 0; r < (l)->grid[1] * (l)->block[1]; r++)          \
        for (unsigned c = 0; c < (l)->grid[0] * (l)->block[0]; c++)

/* transpose_if(out, flag, in, rows, cols): a transpose while *flag, else a copy. */
SIMCUDA_TWIN(_Z12transpose_ifPfPKiPKfii, 8, 8, 8, 4, 4)
{
    float *out = ARG(float *, 0);
    const int *flag = ARG(const int *, 1);
    const float *in = ARG(const float *, 2);
    int rows = ARG(int, 3), cols = ARG(int, 4);
    FOR_RC(launch, r, c) {
        if ((int)r < rows && (int)c < cols)
            out[c * rows + r] = *flag ? in[r * cols + c] : in[c * rows + r];
    }
}

/* transpose_and_double(out, out2, in, rows, cols): out = in^T, out2 = 2 in. */
SIMCUDA_TWIN(_Z20transpose_and_doublePfS_PKfii, 8, 8, 8, 4, 4)
{
    float *out = ARG(float *, 0), *out2 = ARG(float *, 1);
    const float *in = ARG(const float *, 2);
    int rows = ARG(int, 3), cols = ARG(int, 4);
    FOR_RC(launch, r, c) {
        if ((int)r < rows && (int)c < cols) {
            out[c * rows + r] = in[r * cols + c];
            out2[r * cols + c] = 2 * in[r * cols + c];
        }
    }
}

/* transpose_rows(out, in, rows, cols, upto): rows below `upto` only. */
SIMCUDA_TWIN(_Z14transpose_rowsPfPKfiii, 8, 8, 4, 4, 4)
{
    float *out = ARG(float *, 0);
    const float *in = ARG(const float *, 1);
    int rows = ARG(int, 2), cols = ARG(int, 3), upto = ARG(int, 4);
    FOR_RC(launch, r, c) {
        if ((int)r < upto && (int)c < cols)
            out[c * rows + r] = in[r * cols + c];
    }
}

/* nvFuser-style tensors (40 bytes) of the module learn_nvf_copy.cu, which
 * exports CudaCodeGen::kernel1 like nvf_transpose.cu: T1[r, c] = T0[r, c]. */
typedef struct nvf_tensor { float *data; int64_t size[2]; int64_t stride[2]; } nvf_tensor;

SIMCUDA_TWIN(_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1___copy, 40, 40)
{
    nvf_tensor t0 = ARG(nvf_tensor, 0), t1 = ARG(nvf_tensor, 1);
    int64_t n = t0.size[0] * t0.size[1];
    for (uint64_t i = 0; i < THREADS(launch) && (int64_t)i < n; i++) {
        int64_t r = (int64_t)i / t0.size[1], c = (int64_t)i % t0.size[1];
        t1.data[r * t1.stride[0] + c * t1.stride[1]] = t0.data[r * t0.stride[0] + c * t0.stride[1]];
    }
}

/* triton_poi_fused_clone_0(in_ptr0, out_ptr0, ynumel, xnumel). */
SIMCUDA_TWIN(triton_poi_fused_clone_0, 8, 8, 4, 4)
{
    const float *in = ARG(const float *, 0);
    float *out = ARG(float *, 1);
    int yn = ARG(int, 2), xn = ARG(int, 3);
    for (uint64_t i = 0; i < THREADS(launch) && (int64_t)i < (int64_t)yn * xn; i++) {
        int y = (int)i / xn, x = (int)i % xn;
        out[x * yn + y] = in[y * xn + x];
    }
}
