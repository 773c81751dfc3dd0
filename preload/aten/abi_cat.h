/* ATen's torch.cat / torch.stack kernel for contiguous inputs, as the
 * pinned PyTorch build launches it. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: cat of [5,7] and [3,7] along dim 0, of
 * [5,7] and [5,2] along dim 1, stack of two [5,7], float) and against
 * aten/src/ATen/native/cuda/Shape.cu.
 *
 *   CatArrayBatchedCopy_alignedK_contig<OpaqueType<S>, IndexType, Dims,
 *       batch_size, stride_size, alignment>(OpaqueType<S> *output,
 *       CatArrInputTensorMetadata<...> inputs,
 *       TensorSizeStride<IndexType, 4> os, int concatDim,
 *       IndexType dimStride)
 *   (and CatArrayBatchedCopy_contig<..., Dims, batch_size, stride_size>
 *   with the same parameters). Elements are copied as S opaque bytes.
 *   CatArrayBatchedCopy_vectorized<OpaqueType<S>, IndexType, Dims,
 *       batch_size, stride_size, alignment, elems_per_vec>(char *output,
 *       inputs, os, int concatDim, IndexType trailingSize)
 *   copies alignment-byte vectors (elems_per_vec elements): os is in
 *   vectors; input i's nElements / elems_per_vec vectors land at
 *   offset * trailingSize / elems_per_vec plus their index's offset,
 *   counted with dimSize * trailingSize / elems_per_vec along concatDim.
 *   CatArrayBatchedCopy<T, IndexType, Dims, 64, 64>(T *output, inputs, os,
 *       int concatDim, IndexType dimStride): as the contiguous kernel, but
 *       an input whose isContiguous is false is read through its own
 *       tensorStride[i] (sizes and strides, dimSize along concatDim).
 *   Measured: cat of [3,4] and [3,8] floats along dim 1 (Dims 2, os {3, 3;
 *   3, 1}, trailing 1) and of [3,4] and [2,4] along dim 0 (Dims 1, os {5,
 *   4; 1, 1}, trailing 4).
 * gridDim.y is the number of inputs in this batch; input i's nElements
 * contiguous elements land at offset[i] * dimStride plus the offset of
 * their index in the output, counted with input i's dimSize along
 * concatDim and the output's sizes elsewhere (dimension Dims-1 fastest).
 *
 * CatArrInputTensorMetadata<T, uint32_t, batch_size = 128, stride_size>:
 *   const T *input[128]; uint32_t offset[128], dimSize[128],
 *   nElements[128]; bool isContiguous[128];
 *   TensorSizeStride<uint32_t, 4> tensorStride[stride_size];
 * TensorSizeStride<uint32_t, 4>: uint32_t tensorSize[4], tensorStride[4]
 * (elements). Measured: inputs at 0, offset at 1024 ({0, 5} for dim 0),
 * dimSize at 1536 ({5, 3}), nElements at 2048 ({35, 21}); os {8, 7, -, -,
 * 7, 1, -, -} for the [8, 7] output. */
#ifndef TF_ATEN_ABI_CAT_H
#define TF_ATEN_ABI_CAT_H

#include "abi.h"

/* Offsets in CatArrInputTensorMetadata<T, uint32_t, b, stride_size>; the
 * contiguous kernels use b = 128, the strided one (non-contiguous inputs)
 * b = 64 with stride_size 64 (one TensorSizeStride an input). */
#define ATEN_CAT_BATCH 128u
#define ATEN_CAT_MAX_DIMS 4u
#define ATEN_CAT_INPUT 0u
#define ATEN_CAT_OFFSET_B(b) (8u * (b))
#define ATEN_CAT_DIM_SIZE_B(b) (12u * (b))
#define ATEN_CAT_NELEMENTS_B(b) (16u * (b))
#define ATEN_CAT_IS_CONTIGUOUS_B(b) (20u * (b))
#define ATEN_CAT_TENSOR_STRIDE_B(b) ATEN_ALIGN(21u * (b), 4u)
#define ATEN_CAT_SIZE_STRIDE_BYTES (8u * ATEN_CAT_MAX_DIMS)
#define ATEN_CAT_META_BYTES_B(b, stride_size) \
    ATEN_ALIGN(ATEN_CAT_TENSOR_STRIDE_B(b) + ATEN_CAT_SIZE_STRIDE_BYTES * (stride_size), 8u)
#define ATEN_CAT_OFFSET ATEN_CAT_OFFSET_B(ATEN_CAT_BATCH)
#define ATEN_CAT_DIM_SIZE ATEN_CAT_DIM_SIZE_B(ATEN_CAT_BATCH)
#define ATEN_CAT_NELEMENTS ATEN_CAT_NELEMENTS_B(ATEN_CAT_BATCH)
#define ATEN_CAT_META_BYTES(stride_size) ATEN_CAT_META_BYTES_B(ATEN_CAT_BATCH, stride_size)
_Static_assert(ATEN_CAT_OFFSET == 1024 && ATEN_CAT_DIM_SIZE == 1536 && ATEN_CAT_NELEMENTS == 2048,
               "CatArrInputTensorMetadata<T, uint32_t, 128, 1> (measured)");

/* TensorSizeStride<uint32_t, 4> */
#define ATEN_CAT_OS_SIZE 0u
#define ATEN_CAT_OS_STRIDE (4u * ATEN_CAT_MAX_DIMS)

/* The last parameter is dimStride, or trailingSize for the vectorized kernel. */
enum { ATEN_CAT_P_OUTPUT, ATEN_CAT_P_INPUTS, ATEN_CAT_P_OS, ATEN_CAT_P_CONCAT_DIM, ATEN_CAT_P_DIM_STRIDE, ATEN_CAT_NPARAMS };
#define ATEN_CAT_P_TRAILING ATEN_CAT_P_DIM_STRIDE

#endif
