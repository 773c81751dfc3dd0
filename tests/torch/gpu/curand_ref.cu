// Ground truth from real curand on a GPU (run by hand on a GPU machine:
// nvcc -o curand_ref curand_ref.cu && ./curand_ref): curand_init(seed,
// subsequence, offset) then one curand4 / curand_uniform4 / curand_normal4 /
// curand_uniform2_double / curand_normal2_double, printed as hex, to
// compare with tests/sim/aten/philox.c (tests/torch/twins_random.py).
#include <cstdio>
#include <curand_kernel.h>

struct Case { unsigned long long seed, sub, off; };
__global__ void k(const Case *c, unsigned *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  curandStatePhilox4_32_10_t s;
  unsigned *o = out + i * 20;
  curand_init(c[i].seed, c[i].sub, c[i].off, &s);
  uint4 a = curand4(&s); o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = a.w;
  curand_init(c[i].seed, c[i].sub, c[i].off, &s);
  float4 u = curand_uniform4(&s); memcpy(o + 4, &u, 16);
  curand_init(c[i].seed, c[i].sub, c[i].off, &s);
  float4 g = curand_normal4(&s); memcpy(o + 8, &g, 16);
  curand_init(c[i].seed, c[i].sub, c[i].off, &s);
  double2 ud = curand_uniform2_double(&s); memcpy(o + 12, &ud, 16);
  curand_init(c[i].seed, c[i].sub, c[i].off, &s);
  double2 gd = curand_normal2_double(&s); memcpy(o + 16, &gd, 16);
}
int main() {
  Case h[] = {{0, 0, 0}, {0, 1, 0}, {0, 5, 4}, {42, 3, 8}, {0x123456789abcdefULL, 7, 13},
              {2024, 255, 1}, {1, 0x100000000ULL, 6}, {0xffffffffffffffffULL, 9, 0xfffffffffULL}};
  int n = sizeof h / sizeof *h;
  Case *dc; unsigned *dout;
  cudaMalloc(&dc, sizeof h); cudaMalloc(&dout, n * 80);
  cudaMemcpy(dc, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(dc, dout, n);
  unsigned out[8 * 20];
  cudaMemcpy(out, dout, n * 80, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    printf("%llu %llu %llu", h[i].seed, h[i].sub, h[i].off);
    for (int j = 0; j < 20; j++) printf(" %08x", out[i * 20 + j]);
    printf("\n");
  }
  return 0;
}
