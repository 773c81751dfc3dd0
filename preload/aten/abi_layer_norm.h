/* ATen's layer norm kernels (native_layer_norm and its backward), as the
 * pinned PyTorch build launches them: plain pointers and integers, written
 * down here in order with their sizes. Pure C.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping real launches on the
 * stand-in (gdb on cuLaunchKernel: nn.LayerNorm(16) over 18 rows and
 * nn.LayerNorm(1030) over 5 rows, forward and backward, float, half and
 * bfloat16) and against aten/src/ATen/native/cuda/layer_norm_kernel.cu.
 * T_ACC is float for half, bfloat16 and float (double for double); the
 * last template argument is rms_norm. One block a row (gridDim.x = M) for
 * the row kernels; mean and rstd are M T_ACC values. Measured: the
 * vectorized kernel's N = 16 and eps = 1e-5f; GammaBeta's M = 18, N = 16.
 *
 * Forward, vectorizable rows:
 *   vectorized_layer_norm_kernel<T, T_ACC, rms>(int N, T_ACC eps,
 *       const T *X, const T *gamma, const T *beta, T_ACC *mean,
 *       T_ACC *rstd, T *Y)
 * Forward, other rows (two kernels):
 *   RowwiseMomentsCUDAKernel<T, T_ACC, rms>(int64_t M, int64_t N,
 *       T_ACC eps, const T *X, T_ACC *mean, T_ACC *rstd)
 *   LayerNormForwardCUDAKernel<T, T_ACC, rms>(int64_t M, int64_t N,
 *       const T *X, const T_ACC *mean, const T_ACC *rstd, const T *gamma,
 *       const T *beta, T *Y)
 *   (measured: M = 5 rows and N = 1030 first, the grid M blocks)
 * Backward:
 *   layer_norm_grad_input_kernel[_vectorized]<T, T_ACC, rms>(const T *dY,
 *       const T *X, const T_ACC *mean, const T_ACC *rstd, const T *gamma,
 *       T *dX, int N)
 *   GammaBetaBackwardCUDAKernelTemplate<T, T_ACC, block_dim_x, block_dim_y,
 *       rows_per_block_y, check_x, check_y, partial_reduction>(int64_t M,
 *       int64_t N, const T *dY, const T *X, const T_ACC *mean,
 *       const T_ACC *rstd, T *dgamma, T *dbeta)   (columns across the grid;
 *       gamma or beta may be null) */
#ifndef TF_ATEN_ABI_LAYER_NORM_H
#define TF_ATEN_ABI_LAYER_NORM_H

enum { ATEN_LN_VEC_N, ATEN_LN_VEC_EPS, ATEN_LN_VEC_X, ATEN_LN_VEC_GAMMA, ATEN_LN_VEC_BETA, ATEN_LN_VEC_MEAN,
       ATEN_LN_VEC_RSTD, ATEN_LN_VEC_Y, ATEN_LN_VEC_NPARAMS };
#define ATEN_LN_VEC_SIZES(acc) 4, (acc), 8, 8, 8, 8, 8, 8

enum { ATEN_LN_MOM_M, ATEN_LN_MOM_N, ATEN_LN_MOM_EPS, ATEN_LN_MOM_X, ATEN_LN_MOM_MEAN, ATEN_LN_MOM_RSTD,
       ATEN_LN_MOM_NPARAMS };
#define ATEN_LN_MOM_SIZES(acc) 8, 8, (acc), 8, 8, 8

enum { ATEN_LN_FWD_M, ATEN_LN_FWD_N, ATEN_LN_FWD_X, ATEN_LN_FWD_MEAN, ATEN_LN_FWD_RSTD, ATEN_LN_FWD_GAMMA, ATEN_LN_FWD_BETA,
       ATEN_LN_FWD_Y, ATEN_LN_FWD_NPARAMS };
#define ATEN_LN_FWD_SIZES 8, 8, 8, 8, 8, 8, 8, 8

enum { ATEN_LN_GI_DY, ATEN_LN_GI_X, ATEN_LN_GI_MEAN, ATEN_LN_GI_RSTD, ATEN_LN_GI_GAMMA, ATEN_LN_GI_DX, ATEN_LN_GI_N,
       ATEN_LN_GI_NPARAMS };
#define ATEN_LN_GI_SIZES 8, 8, 8, 8, 8, 8, 4

enum { ATEN_LN_GB_M, ATEN_LN_GB_N, ATEN_LN_GB_DY, ATEN_LN_GB_X, ATEN_LN_GB_MEAN, ATEN_LN_GB_RSTD, ATEN_LN_GB_DGAMMA,
       ATEN_LN_GB_DBETA, ATEN_LN_GB_NPARAMS };
#define ATEN_LN_GB_SIZES 8, 8, 8, 8, 8, 8, 8, 8

#endif
