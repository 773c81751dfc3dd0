/* ATen's torch.arange kernel, as the pinned PyTorch build launches it.
 * Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: arange in int64, int32, float, half,
 * bfloat16, double) and against aten/src/ATen/native/cuda/RangeFactories.cu.
 *
 *   elementwise_kernel_with_index<index_t, F>(index_t N, F f, scalar_t *data)
 *   F = arange_cuda_out(...)::{lambda()#1}::...::{lambda()#D}::...
 *       ::{lambda(long)#1}, capturing {acc_t xstart; acc_t xstep;}
 *   data[i] = (scalar_t)(xstart + xstep * (acc_t)i)
 * acc_t is int64_t for integer types, double for double, float for float,
 * half and bfloat16. D is the type's place in AT_DISPATCH_ALL_TYPES_AND2
 * (Half, BFloat16): 1 uint8, 2 int8, 3 int32, 4 int64, 5 int16, 6 double,
 * 7 float, 8 half, 9 bfloat16. Measured: int64 (3, 2) for arange(3, 30, 2),
 * bfloat16 (0.5f, 0.25f), double (2.0, 0.5); N = 14, 10, ...; index_t int. */
#ifndef TF_ATEN_ABI_RANGE_H
#define TF_ATEN_ABI_RANGE_H

enum { ATEN_ARANGE_N, ATEN_ARANGE_F, ATEN_ARANGE_DATA, ATEN_ARANGE_NPARAMS };
#define ATEN_ARANGE_F_START 0u
#define ATEN_ARANGE_F_STEP(acc_size) (acc_size)

#endif
