/* ATen's softmax / log_softmax kernels over the last dimension, as the
 * pinned PyTorch build launches them. Their parameters are plain pointers
 * and integers (no closures); this header is where their order and sizes
 * are written down. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: softmax over 9 and 1100 columns,
 * log_softmax in cross_entropy, their backward passes, float, half and
 * bfloat16) and against aten/src/ATen/native/cuda/PersistentSoftmax.cuh
 * and SoftMax.cu.
 *
 * Rows of at most 1024 elements, and 2048 for 2-byte types (the persistent
 * "warp" kernels; log2_elements is the rounded-up row length's log2):
 *   softmax_warp_forward<in_t, out_t, acc_t, log2_elements, is_log_softmax,
 *       is_masked, 32>(out_t *dst, const in_t *src, int batch_size,
 *       int stride, int element_count, const bool *mask,
 *       int head_chunk_size, bool is_transformer_mask)
 *   softmax_warp_backward<in_t, out_t, acc_t, log2_elements, is_log_softmax,
 *       is_masked, 32>(out_t *grad_input, const in_t *grad,
 *       const in_t *output, int batch_size, int stride, int element_count,
 *       const bool *mask)
 *   Row r is at r * stride; batch_size rows (not the grid) are computed.
 * Longer rows: one block a row (gridDim.x rows):
 *   cunn_SoftMaxForward[Smem]<ILP, scalar_t, acc_t, out_t, Epilogue>
 *       (out_t *output, const scalar_t *input, int classes)
 *   cunn_SoftMaxForwardReg<scalar_t, acc_t, out_t, Epilogue, index_t, ILP>
 *       (out_t *output, const scalar_t *input, index_t classes)  (measured:
 *       index_t long, 3000 columns)
 *   cunn_SoftMaxBackward[Smem]<ILP, scalar_t, acc_t, out_t, Epilogue>
 *       (scalar_t *grad_input, const out_t *output, const out_t *grad_output,
 *        int64_t classes)
 *   Both backward forms sum the gradient they are given alone: for softmax
 *   ATen passes grad * output (an elementwise product launched before),
 *   and the warp kernel gives grad - output * sum like
 *   SoftMaxBackwardEpilogue gives grad_output - output * sum,
 *   LogSoftMaxBackwardEpilogue grad_output - exp(output) * sum. */
#ifndef TF_ATEN_ABI_SOFTMAX_H
#define TF_ATEN_ABI_SOFTMAX_H

#include <stdint.h>

/* softmax_warp_forward's parameters. */
enum {
    ATEN_SMW_FWD_DST, ATEN_SMW_FWD_SRC, ATEN_SMW_FWD_BATCH, ATEN_SMW_FWD_STRIDE, ATEN_SMW_FWD_ELEMENTS,
    ATEN_SMW_FWD_MASK, ATEN_SMW_FWD_HEAD_CHUNK, ATEN_SMW_FWD_TRANSFORMER_MASK, ATEN_SMW_FWD_NPARAMS
};
#define ATEN_SMW_FWD_SIZES 8, 8, 4, 4, 4, 8, 4, 1

/* softmax_warp_backward's parameters. */
enum {
    ATEN_SMW_BWD_GRAD_INPUT, ATEN_SMW_BWD_GRAD, ATEN_SMW_BWD_OUTPUT, ATEN_SMW_BWD_BATCH, ATEN_SMW_BWD_STRIDE,
    ATEN_SMW_BWD_ELEMENTS, ATEN_SMW_BWD_MASK, ATEN_SMW_BWD_NPARAMS
};
#define ATEN_SMW_BWD_SIZES 8, 8, 8, 4, 4, 4, 8

/* cunn_SoftMaxForward / cunn_SoftMaxBackward: the last parameter's size is
 * the classes' integer type (int or int64_t, from the signature). */
enum { ATEN_SMC_FWD_OUTPUT, ATEN_SMC_FWD_INPUT, ATEN_SMC_FWD_CLASSES };
enum { ATEN_SMC_BWD_GRAD_INPUT, ATEN_SMC_BWD_OUTPUT, ATEN_SMC_BWD_GRAD_OUTPUT, ATEN_SMC_BWD_CLASSES };

#endif
