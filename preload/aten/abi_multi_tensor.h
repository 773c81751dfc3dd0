/* ATen's multi_tensor_apply_kernel launch layout (torch._foreach_* and the
 * foreach optimizers), as the pinned PyTorch build passes it. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping the parameter bytes of
 * real launches on the stand-in (gdb on cuLaunchKernel: SGD and AdamW with
 * foreach=True over float, half and bfloat16) and against
 * aten/src/ATen/native/cuda/MultiTensorApply.cuh and ForeachFunctors.cuh.
 *
 *   multi_tensor_apply_kernel<Metadata, Functor, Op..., Scalar...>
 *       (Metadata meta, Functor callable, Op op, [opmath_t scalar])
 * The functor and op are empty (1 byte each); a scalar (alpha, weight,
 * value) follows as opmath_t (float for half/bfloat16/float, double for
 * double). Each block b handles chunk block_to_chunk[b] (kChunkSize
 * elements) of tensor block_to_tensor[b]; numel_for_tensor bounds it.
 *
 * The wheel is built with the 32 KB kernel-argument configuration
 * (DepthToMaxConfig<true>): the 4 KB limits multiplied by 7 and
 * block_to_tensor widened to uint16_t. Measured: depth 1 numel at 6160
 * (770 tensors), block_to_tensor (uint16 0,1,2,3) at 12320; depth 3 numel at
 * 8064, block_to_tensor at 10752; scalar-list depth 1 numel at 5376, scalars
 * at 10752, block_to_tensor at 13440; depth 3 scalar list at 12096. */
#ifndef TF_ATEN_ABI_MULTI_TENSOR_H
#define TF_ATEN_ABI_MULTI_TENSOR_H

#include "abi.h"

#define ATEN_MT_CHUNK 65536
#define ATEN_MT_MAX_DEPTH 5
#define ATEN_MT_MAX_BLOCKS 2240u

/* depth_to_max_tensors and depth_to_max_tensors_scalarlist (depth 1..5). */
#define ATEN_MT_MAX_TENSORS(d) ((d) == 1 ? 770u : (d) == 2 ? 448u : (d) == 3 ? 336u : (d) == 4 ? 252u : 210u)
#define ATEN_MT_MAX_TENSORS_SL(d) ((d) == 1 ? 672u : ATEN_MT_MAX_TENSORS(d))

/* TensorListMetadata<d>: const void *addresses[d][T]; int64_t numel[T];
 * uint16_t block_to_tensor[2240]; int block_to_chunk[2240];
 * int start_tensor_this_launch. */
#define ATEN_TL_ADDRESSES(d, k) (8 * (k) * ATEN_MT_MAX_TENSORS(d))
#define ATEN_TL_NUMEL(d) (8 * (d) * ATEN_MT_MAX_TENSORS(d))
#define ATEN_TL_B2T(d) (ATEN_TL_NUMEL(d) + 8 * ATEN_MT_MAX_TENSORS(d))
#define ATEN_TL_B2C(d) (ATEN_TL_B2T(d) + 2 * ATEN_MT_MAX_BLOCKS)
#define ATEN_TL_START(d) (ATEN_TL_B2C(d) + 4 * ATEN_MT_MAX_BLOCKS)
#define ATEN_TL_BYTES(d) ATEN_ALIGN(ATEN_TL_START(d) + 4, 8)
_Static_assert(ATEN_TL_NUMEL(1) == 6160 && ATEN_TL_B2T(1) == 12320, "TensorListMetadata<1> (measured)");
_Static_assert(ATEN_TL_NUMEL(3) == 8064 && ATEN_TL_B2T(3) == 10752, "TensorListMetadata<3> (measured)");

/* TensorListScalarListMetadata<s, d>: addresses[d][T]; int64_t numel[T];
 * s scalar_vals[T]; uint16_t block_to_tensor[2240]; int block_to_chunk[2240]
 * (no start_tensor_this_launch). ss: sizeof(s). */
#define ATEN_SL_ADDRESSES(d, k) (8 * (k) * ATEN_MT_MAX_TENSORS_SL(d))
#define ATEN_SL_NUMEL(d) (8 * (d) * ATEN_MT_MAX_TENSORS_SL(d))
#define ATEN_SL_SCALARS(d) (ATEN_SL_NUMEL(d) + 8 * ATEN_MT_MAX_TENSORS_SL(d))
#define ATEN_SL_B2T(d, ss) (ATEN_SL_SCALARS(d) + (ss) * ATEN_MT_MAX_TENSORS_SL(d))
#define ATEN_SL_B2C(d, ss) ATEN_ALIGN(ATEN_SL_B2T(d, ss) + 2 * ATEN_MT_MAX_BLOCKS, 4)
#define ATEN_SL_BYTES(d, ss) ATEN_ALIGN(ATEN_SL_B2C(d, ss) + 4 * ATEN_MT_MAX_BLOCKS, 8)
_Static_assert(ATEN_SL_NUMEL(1) == 5376 && ATEN_SL_SCALARS(1) == 10752 && ATEN_SL_B2T(1, 4) == 13440,
               "TensorListScalarListMetadata<float, 1> (measured)");
_Static_assert(ATEN_SL_B2T(3, 4) == 12096, "TensorListScalarListMetadata<float, 3> (measured)");

#endif
