// An ATen-style generic strided copy (elementwise_kernel with a copy
// closure): one kernel for plain copies, transposes and permutations, told
// apart only by the sizes and byte strides in its closure. Its CPU twin is
// in twins/learn.c.
#include <stdint.h>

struct copy_closure {
    char *data[2];          // out, in
    int64_t sizes[3];       // logical shape, last dimension fastest
    int64_t strides[2][3];  // byte strides of out and in
    int32_t ndim;
    int32_t pad;
};

__global__ void elementwise_copy(int n, copy_closure c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int64_t rem = i, out = 0, in = 0;
    for (int d = c.ndim - 1; d >= 0; d--) {
        int64_t idx = rem % c.sizes[d];
        rem /= c.sizes[d];
        out += idx * c.strides[0][d];
        in += idx * c.strides[1][d];
    }
    *(float *)(c.data[0] + out) = *(const float *)(c.data[1] + in);
}
