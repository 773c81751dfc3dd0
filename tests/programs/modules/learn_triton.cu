// A Triton-style pointwise "clone" kernel, as Inductor emits for a
// transpose: out_ptr0[x, y] = in_ptr0[y, x] over a flat index, launched by
// the program through dlopen/dlsym of libcuda + cuLaunchKernel. Its CPU twin
// is triton_poi_fused_clone_0 in twins/learn.c.
extern "C" __global__ void triton_poi_fused_clone_0(const float *in_ptr0, float *out_ptr0, int ynumel, int xnumel)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ynumel * xnumel) return;
    int y = i / xnumel, x = i % xnumel;
    out_ptr0[x * ynumel + y] = in_ptr0[y * xnumel + x];
}
