/* ATen's random-number kernels as the pinned PyTorch build launches them.
 * Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (SIMCUDA_RNG_DUMP=1 prints a launch's closure bytes: rand,
 * randn, uniform_(1, 2), normal_(1, 2), bernoulli_(0.3), randint over
 * float, double, half, int64, contiguous and transposed) and against
 * ATen/native/cuda/DistributionTemplates.h and ATen/cuda/PhiloxUtils.cuh
 * as shipped in the wheel.
 *
 *   distribution_elementwise_grid_stride_kernel<acc_t, unroll, dist_t,
 *       transform_t>(int64_t numel, PhiloxCudaState philox_args,
 *       dist_t dist_func, transform_t transform_func)
 * Thread idx = blockIdx.x * blockDim.x + threadIdx.x runs
 * curand_init(seed, idx, offset); each pass of its grid-stride loop draws
 * once (four 32-bit words: curand_uniform4, curand_normal4, curand4, or
 * two doubles / two 64-bit words from the same four) and gives value ii
 * of the draw to element linear_index + ii * blockDim.x * gridDim.x
 * (ii < unroll), linear_index stepping by blockDim.x * gridDim.x * unroll.
 * dist_t is an empty lambda (1 byte). transform_t is
 * distribution_nullary_kernel's lambda: #1 (a trivial 1-d tensor)
 * captures char *out_data, int stride0 (bytes), then the op's functor;
 * #2 captures OffsetCalculator<1> (abi.h), then out_data, then the
 * functor. The op's functor captures, in order:
 *   uniform_kernel:        opmath range, scalar_t from, scalar_t to
 *   normal_kernel:         acc mean, acc std
 *   bernoulli_kernel:      double p
 *   random_from_to_kernel: uint64_t range, int64_t base
 *   random_kernel, random_full_64_bits_range_kernel: nothing (1 byte)
 * (acc/opmath is float for half, bfloat16 and float, double for double.) */
#ifndef TF_ATEN_ABI_RANDOM_H
#define TF_ATEN_ABI_RANDOM_H

#include "abi.h"

/* at::PhiloxCudaState: seed_ and offset_ are values, or (captured_ under
 * CUDA graph capture) device pointers to int64 seed and offset, the
 * offset then plus offset_intragraph_. */
#define ATEN_PHILOX_SEED 0u
#define ATEN_PHILOX_OFFSET 8u
#define ATEN_PHILOX_INTRAGRAPH 16u
#define ATEN_PHILOX_CAPTURED 24u
#define ATEN_PHILOX_BYTES 32u
_Static_assert(ATEN_PHILOX_BYTES == ATEN_ALIGN(ATEN_PHILOX_CAPTURED + 1, 8), "PhiloxCudaState is 32 bytes");

/* Parameters of distribution_elementwise_grid_stride_kernel. */
enum { ATEN_RNG_P_NUMEL, ATEN_RNG_P_PHILOX, ATEN_RNG_P_DIST, ATEN_RNG_P_TRANSFORM, ATEN_RNG_NPARAMS };
#define ATEN_RNG_DIST_BYTES 1u

/* The trivial 1-d closure (#1): out_data, stride0, functor. */
#define ATEN_RNG_1D_DATA 0u
#define ATEN_RNG_1D_STRIDE 8u
#define ATEN_RNG_1D_FUNCTOR(falign) ATEN_ALIGN(12u, (falign))
/* The strided closure (#2): OffsetCalculator<1>, out_data, functor. */
#define ATEN_RNG_OC_DATA ATEN_ALIGN(ATEN_OC_BYTES(1), 8u)
#define ATEN_RNG_OC_FUNCTOR(falign) ATEN_ALIGN(ATEN_RNG_OC_DATA + 8u, (falign))
_Static_assert(ATEN_OC_BYTES(1) == 404 && ATEN_RNG_OC_DATA == 408, "OffsetCalculator<1> is 404 bytes");

#define ATEN_RNG_CLOSURE_BYTES(fstart, fsize) ATEN_ALIGN((fstart) + (fsize), 8u)

/* Dropout (native_dropout, F.dropout in training; Dropout.cu):
 *   fused_dropout_kernel_vec<scalar_t, acc_t, IndexType, ADims, VEC, mask_t>
 *   fused_dropout_kernel<scalar_t, acc_t, IndexType, ADims, BDims, mask_t>
 *     (TensorInfo<const scalar_t> a, TensorInfo<scalar_t> b,
 *      TensorInfo<mask_t> c, IndexType totalElements, acc_t p,
 *      PhiloxCudaState philox_args)
 * TensorInfo<T, uint32_t> as in abi_index.h (216 bytes); p is the
 * probability to keep (1 - dropout's p), acc_t float or double. The vector
 * kernel (contiguous, numel a multiple of VEC) gives thread idx elements
 * idx * VEC + k, stepping by threads * VEC, ceil(VEC / 4) curand_uniform4
 * draws a step (value k % 4 of draw k / 4; VEC 2 uses x and y); the plain
 * kernel maps elements as distribution_elementwise_grid_stride_kernel with
 * unroll 4. Element: keep = u < p; out = src * keep * (acc_t)(1.0 / p);
 * mask = keep. */
#include "abi_index.h"
enum { ATEN_DROPOUT_P_A, ATEN_DROPOUT_P_B, ATEN_DROPOUT_P_C, ATEN_DROPOUT_P_N, ATEN_DROPOUT_P_P,
       ATEN_DROPOUT_P_PHILOX, ATEN_DROPOUT_NPARAMS };


/* torch.randperm on the device (Randperm.cu, Randperm.cuh; the "no twin"
 * line of torch.randperm(10) on the stand-in): random keys
 * (random_from_to's kernel), then cub's radix sort of (key, index) pairs,
 * then randperm_handle_duplicate_keys_kernel.
 *   cub::detail::radix_sort::DeviceRadixSortSingleTileKernel<Policy,
 *       SortOrder, KeyT, ValueT, OffsetT, Decomposer>(const KeyT *keys_in,
 *       KeyT *keys_out, const ValueT *values_in, ValueT *values_out,
 *       OffsetT num_items, int current_bit, int end_bit, Decomposer)
 * one block sorts everything (small inputs; larger ones go through
 * cub's onesweep kernels, not twinned): a stable sort on bits
 * [current_bit, end_bit) of the key, signed keys with their sign bit
 * flipped (cub's twiddle), descending when SortOrder is 1.
 *   randperm_handle_duplicate_keys_kernel<T, scalar_t>(T *keys,
 *       scalar_t *data, T mask, int n, PhiloxCudaState)
 * thread tid at the start of a run of keys equal under mask shuffles
 * that run's data: curand_init(seed, tid, offset), then for i from the
 * run's size - 1 down to 1 swaps data[i] and data[curand() % (i + 1)]. */
enum { ATEN_SORT1_P_KEYS_IN, ATEN_SORT1_P_KEYS_OUT, ATEN_SORT1_P_VALUES_IN, ATEN_SORT1_P_VALUES_OUT,
       ATEN_SORT1_P_N, ATEN_SORT1_P_BEGIN, ATEN_SORT1_P_END, ATEN_SORT1_P_DECOMPOSER, ATEN_SORT1_NPARAMS };
enum { ATEN_DUPKEYS_P_KEYS, ATEN_DUPKEYS_P_DATA, ATEN_DUPKEYS_P_MASK, ATEN_DUPKEYS_P_N, ATEN_DUPKEYS_P_PHILOX,
       ATEN_DUPKEYS_NPARAMS };

#endif
