/* ATen's nll_loss kernels with a reduction (mean or sum) over a 2-D input,
 * the ones cross_entropy launches after log_softmax: plain pointers and
 * integers, written down here in order with their sizes. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: F.cross_entropy over 6 x 11 logits,
 * forward and backward, float, half and bfloat16) and against
 * aten/src/ATen/native/cuda/Loss.cu.
 *
 *   nll_loss_forward_reduce_cuda_kernel_2d<scalar_t, acc_t, index_t>(
 *       scalar_t *output, scalar_t *total_weight, const scalar_t *input,
 *       const index_t *target, const scalar_t *weights, bool size_average,
 *       int64_t nframe, int64_t ndim, int64_t n_classes,
 *       int64_t ignore_index)
 *   nll_loss_backward_reduce_cuda_kernel_2d<scalar_t, index_t>(
 *       scalar_t *grad_input, const scalar_t *grad_output,
 *       const index_t *target, const scalar_t *weights,
 *       const scalar_t *total_weight, bool size_average, int nframe,
 *       int ndim, int64_t n_classes, int64_t ignore_index)
 * input is nframe rows of ndim; weights may be null (all ones). The
 * backward writes only the target's element of each row (ATen zeroes
 * grad_input first). */
#ifndef TF_ATEN_ABI_NLL_LOSS_H
#define TF_ATEN_ABI_NLL_LOSS_H

enum { ATEN_NLL_FWD_OUTPUT, ATEN_NLL_FWD_TOTAL_WEIGHT, ATEN_NLL_FWD_INPUT, ATEN_NLL_FWD_TARGET, ATEN_NLL_FWD_WEIGHTS,
       ATEN_NLL_FWD_SIZE_AVERAGE, ATEN_NLL_FWD_NFRAME, ATEN_NLL_FWD_NDIM, ATEN_NLL_FWD_NCLASSES, ATEN_NLL_FWD_IGNORE,
       ATEN_NLL_FWD_NPARAMS };
#define ATEN_NLL_FWD_SIZES 8, 8, 8, 8, 8, 1, 8, 8, 8, 8

enum { ATEN_NLL_BWD_GRAD_INPUT, ATEN_NLL_BWD_GRAD_OUTPUT, ATEN_NLL_BWD_TARGET, ATEN_NLL_BWD_WEIGHTS,
       ATEN_NLL_BWD_TOTAL_WEIGHT, ATEN_NLL_BWD_SIZE_AVERAGE, ATEN_NLL_BWD_NFRAME, ATEN_NLL_BWD_NDIM,
       ATEN_NLL_BWD_NCLASSES, ATEN_NLL_BWD_IGNORE, ATEN_NLL_BWD_NPARAMS };
#define ATEN_NLL_BWD_SIZES 8, 8, 8, 8, 8, 1, 4, 4, 8, 8

#endif
