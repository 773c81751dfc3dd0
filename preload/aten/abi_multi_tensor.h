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

/* torch._foreach_norm (clip_grad_norm_), two kernels. Measured with three
 * tensors of 12, 3 and 70000 floats (1, 1 and 2 chunks):
 *   multi_tensor_apply_kernel<TensorListMetadata<1>, LpNormFunctor<T,
 *       NormType, out_t, 1, 1, 0>, out_opmath_t *, const int64_t *>(meta,
 *       functor, out_opmath_t *partials, const int64_t *chunk_offsets)
 *     each block writes its chunk's partial (sum of squares for L2) to
 *     partials[chunk_offsets[start_tensor_this_launch + tensor] + chunk];
 *     chunk_offsets is a device array of running chunk counts ({0, 1, 2,
 *     4} measured)
 *   lpnorm_cleanup<T, NormType, out_t, apply_root, out_opmath_t>(
 *       const out_opmath_t *partials, TensorListAddresses outputs,
 *       const int64_t *chunk_offsets, int first_tensor)
 *     block b sums partials[chunk_offsets[first_tensor + b] ..
 *     chunk_offsets[first_tensor + b + 1]) and stores its square root (L2,
 *     apply_root) as out_t at outputs.addresses[b]; first_tensor was 0 with
 *     fewer tensors than one TensorListAddresses holds.
 * NormType 2 is L2 (torch._foreach_norm(ord=2) launches NormType 2).
 * TensorListAddresses: const void *addresses[770]. */
#define ATEN_MT_ADDRESSES_BYTES (8u * ATEN_MT_MAX_TENSORS(1))

/* The fused optimizers (torch.optim.Adam/AdamW with fused=True):
 *   multi_tensor_apply_kernel<FusedOptimizerTensorListMetadata<4>,
 *       FusedAdamMathFunctor<T, 4, ADAM_MODE, amsgrad>, const float *,
 *       double, double, double, double, double, bool, const float *,
 *       const float *>(meta, functor, const float *lr_ptr, double lr,
 *       double beta1, double beta2, double weight_decay, double eps,
 *       bool maximize, const float *grad_scale, const float *found_inf)
 * Lists: 0 params, 1 grads, 2 exp_avg, 3 exp_avg_sq. Measured (AdamW,
 * lr 0.01, betas (0.8, 0.95), weight_decay 0.05, eps 1e-7, two float
 * tensors of 12 and 3): numel at 8064, state_steps at 10080,
 * block_to_tensor at 12096; lr_ptr, grad_scale and found_inf null.
 * FusedOptimizerTensorListMetadata<d>: addresses[d][T]; int64_t numel[T];
 * const void *state_steps_addresses[T_SL]; uint16_t block_to_tensor[2240];
 * int block_to_chunk[2240]; int start_tensor_this_launch. */
#define ATEN_FO_ADDRESSES(d, k) ATEN_TL_ADDRESSES(d, k)
#define ATEN_FO_NUMEL(d) ATEN_TL_NUMEL(d)
#define ATEN_FO_STEPS(d) (ATEN_FO_NUMEL(d) + 8u * ATEN_MT_MAX_TENSORS(d))
#define ATEN_FO_B2T(d) (ATEN_FO_STEPS(d) + 8u * ATEN_MT_MAX_TENSORS_SL(d))
#define ATEN_FO_B2C(d) (ATEN_FO_B2T(d) + 2u * ATEN_MT_MAX_BLOCKS)
#define ATEN_FO_START(d) (ATEN_FO_B2C(d) + 4u * ATEN_MT_MAX_BLOCKS)
#define ATEN_FO_BYTES(d) ATEN_ALIGN(ATEN_FO_START(d) + 4u, 8u)
_Static_assert(ATEN_FO_NUMEL(4) == 8064 && ATEN_FO_STEPS(4) == 10080 && ATEN_FO_B2T(4) == 12096,
               "FusedOptimizerTensorListMetadata<4> (measured)");
/*   multi_tensor_apply_kernel<TensorListMetadata<d>, FusedSgdMathFunctor<T,
 *       d>, double, double, float *, double, double, bool, bool, bool,
 *       float *, float *>(meta, functor, double weight_decay,
 *       double momentum, const float *lr_ptr, double lr, double dampening,
 *       bool nesterov, bool maximize, bool is_first_step,
 *       const float *grad_scale, const float *found_inf)
 * Lists: 0 params, 1 grads, 2 momentum buffers (d = 3). Measured (lr 0.01,
 * momentum 0.9, dampening 0.1, weight_decay 0.05: is_first_step 1 then 0;
 * lr 0.02 without momentum: d = 2). */
enum { ATEN_FSGD_META, ATEN_FSGD_FUNCTOR, ATEN_FSGD_WEIGHT_DECAY, ATEN_FSGD_MOMENTUM, ATEN_FSGD_LR_PTR, ATEN_FSGD_LR,
       ATEN_FSGD_DAMPENING, ATEN_FSGD_NESTEROV, ATEN_FSGD_MAXIMIZE, ATEN_FSGD_FIRST_STEP, ATEN_FSGD_GRAD_SCALE,
       ATEN_FSGD_FOUND_INF, ATEN_FSGD_NPARAMS };
enum { ATEN_FADAM_META, ATEN_FADAM_FUNCTOR, ATEN_FADAM_LR_PTR, ATEN_FADAM_LR, ATEN_FADAM_BETA1, ATEN_FADAM_BETA2,
       ATEN_FADAM_WEIGHT_DECAY, ATEN_FADAM_EPS, ATEN_FADAM_MAXIMIZE, ATEN_FADAM_GRAD_SCALE, ATEN_FADAM_FOUND_INF,
       ATEN_FADAM_NPARAMS };

#endif
