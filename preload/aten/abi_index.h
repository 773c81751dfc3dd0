/* ATen's TensorInfo-based kernels met in training programs: tril/triu,
 * index_select (and embedding's forward, which is one), embedding's
 * backward. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: torch.tril/triu of a [5,7] float,
 * index_select of rows [4,0,2], nn.Embedding(11, 6) forward and backward)
 * and against aten/src/ATen/cuda/detail/TensorInfo.cuh,
 * native/cuda/TriangularOps.cu, Indexing.cu and Embedding.cu.
 *
 * at::cuda::detail::TensorInfo<T, IndexType> (IndexType uint32_t or int):
 *   T *data; IndexType sizes[25]; IndexType strides[25] (elements);
 *   int dims;                                   216 bytes
 * Measured: data at 0, sizes {1, 7} at 8, strides {7, 1} at 108, dims 2
 * at 208 (index_select's destination, the selected dim collapsed to 1).
 *
 *   triu_tril_kernel<T, IndexType, upper, elements_per_thread, inplace>(
 *       TensorInfo<T> result, TensorInfo<const T> self, int64_t k,
 *       int64_t N_padded, IndexType last_dim_padded)
 *   indexSelectSmallIndex<T, IndicesType, IndexType, DstDim, SrcDim, IdxDim>(
 *       TensorInfo<T> dst, TensorInfo<const T> src,
 *       TensorInfo<const IndicesType> indices, int dstSelectDim,
 *       int srcSelectDim, IndexType innerSize, int64_t srcSelectDimSize)
 *   indexSelectLargeIndex<..., IndexIsMajor>(dst, src, indices,
 *       int dstSelectDim, int srcSelectDim, IndexType totalSize,
 *       IndexType innerSize, int64_t srcSelectDimSize)
 *   embedding_backward_feature_kernel<T, acc_t, index_t>(
 *       const index_t *indices, const T *grad, T *grad_weight, int n,
 *       int64_t stride, int padding_idx)  (blockDim.y indices a batch)
 *
 * gather / scatter (and index_select with many indices, which is a
 * gather): a TensorIterator over [self, src, index] with the indexed dim
 * restrided to 0 in the indexed operand:
 *   _scatter_gather_elementwise_kernel<nt, vt, loop>(int N, loop)
 *   loop = _cuda_scatter_gather_internal_kernel<is_scatter_like, scalar_t,
 *          index_t>::operator()<func>'s lambda, capturing in order of use:
 *     OffsetCalculator<3> offset_calc; char *index_ptr;
 *     int64_t index_size; func f (empty); char *self_ptr;
 *     int64_t index_stride; int64_t numel; char *src_ptr     664 bytes
 *   element i: idx = index[i]; gather: self[i] = src[i + idx *
 *   index_stride]; scatter: self[i + idx * index_stride] (op)= src[i]
 *   (index_stride in elements). Measured: gather of a [5,7] float along
 *   dim 1 by a [5,2] index: index_size 7, index_stride 1, numel 10;
 *   index_select of 400 rows: index_size 5, index_stride 7, numel 2800. */
#ifndef TF_ATEN_ABI_INDEX_H
#define TF_ATEN_ABI_INDEX_H

#include "abi.h"

#define ATEN_TI_MAX_DIMS 25u
#define ATEN_TI_DATA 0u
#define ATEN_TI_SIZES 8u
#define ATEN_TI_STRIDES (ATEN_TI_SIZES + 4u * ATEN_TI_MAX_DIMS)
#define ATEN_TI_DIMS (ATEN_TI_STRIDES + 4u * ATEN_TI_MAX_DIMS)
#define ATEN_TI_BYTES 216u
_Static_assert(ATEN_TI_STRIDES == 108 && ATEN_TI_DIMS == 208, "TensorInfo<T, uint32_t> (measured)");

enum { ATEN_TRI_RESULT, ATEN_TRI_SELF, ATEN_TRI_K, ATEN_TRI_N_PADDED, ATEN_TRI_LAST_DIM_PADDED, ATEN_TRI_NPARAMS };
#define ATEN_TRI_SIZES ATEN_TI_BYTES, ATEN_TI_BYTES, 8, 8, 4

enum { ATEN_ISEL_DST, ATEN_ISEL_SRC, ATEN_ISEL_INDICES, ATEN_ISEL_DST_DIM, ATEN_ISEL_SRC_DIM };
#define ATEN_ISEL_SMALL_SIZES ATEN_TI_BYTES, ATEN_TI_BYTES, ATEN_TI_BYTES, 4, 4, 4, 8
#define ATEN_ISEL_LARGE_SIZES ATEN_TI_BYTES, ATEN_TI_BYTES, ATEN_TI_BYTES, 4, 4, 4, 4, 8

enum { ATEN_EMB_BWD_INDICES, ATEN_EMB_BWD_GRAD, ATEN_EMB_BWD_GRAD_WEIGHT, ATEN_EMB_BWD_N, ATEN_EMB_BWD_STRIDE,
       ATEN_EMB_BWD_PADDING, ATEN_EMB_BWD_NPARAMS };
#define ATEN_EMB_BWD_SIZES 8, 8, 8, 4, 8, 4

#define ATEN_SG_OC 0u
#define ATEN_SG_INDEX_PTR ATEN_ALIGN(ATEN_OC_BYTES(3), 8u)
#define ATEN_SG_INDEX_SIZE (ATEN_SG_INDEX_PTR + 8u)
#define ATEN_SG_FUNC (ATEN_SG_INDEX_SIZE + 8u)
#define ATEN_SG_SELF_PTR (ATEN_SG_FUNC + 8u)
#define ATEN_SG_INDEX_STRIDE (ATEN_SG_SELF_PTR + 8u)
#define ATEN_SG_NUMEL (ATEN_SG_INDEX_STRIDE + 8u)
#define ATEN_SG_SRC_PTR (ATEN_SG_NUMEL + 8u)
#define ATEN_SG_BYTES (ATEN_SG_SRC_PTR + 8u)
_Static_assert(ATEN_SG_INDEX_PTR == 608 && ATEN_SG_SRC_PTR == 656 && ATEN_SG_BYTES == 664,
               "scatter/gather closure (measured)");

#endif
