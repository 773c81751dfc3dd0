// simcuda-variant: copy
// A second nvFuser-style module exporting the SAME kernel name as
// nvf_transpose.cu (CudaCodeGen::kernel1), but a plain copy: what a glob
// rule on the name would wrongly fold. The variant line above is kept in the
// PTX (programs.mk) so that the stand-in runs this module's own twin,
// _ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1___copy (twins/learn.c).
#include <stdint.h>

namespace CudaCodeGen {
template <typename T, int N, int M>
struct Tensor {
    T *data;
    int64_t logical_size[N];
    int64_t alloc_stride[M];
};

// T1[r, c] = T0[r, c]; one thread per element of T0.
__global__ void kernel1(Tensor<float, 2, 2> T0, Tensor<float, 2, 2> T1)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= T0.logical_size[0] * T0.logical_size[1]) return;
    int64_t r = i / T0.logical_size[1], c = i % T0.logical_size[1];
    T1.data[r * T1.alloc_stride[0] + c * T1.alloc_stride[1]] = T0.data[r * T0.alloc_stride[0] + c * T0.alloc_stride[1]];
}
} // namespace CudaCodeGen
