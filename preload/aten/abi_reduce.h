/* ATen's reduce_kernel launch layout, as the pinned PyTorch build passes it.
 * Pure C, no CUDA types.
 *
 * Checked on torch 2.15.0 (CUDA 13 wheel) by dumping the parameter bytes of
 * real launches on the stand-in (gdb on cuLaunchKernel; sum, mean, amax,
 * amin, max(dim), norm, argmax, var over float, half and bfloat16) and
 * against aten/src/ATen/native/cuda/Reduce.cuh and SharedReduceOps.h.
 *
 *   reduce_kernel<nt, output_vec_size, ReduceOp<scalar_t, ops_t, index_t,
 *                 out_scalar_t, vt0, input_vec_size>>(ReduceOp op)
 *
 * One parameter, the ReduceOp by value:
 *   ops_t ops;                 the reduction's state (often empty: 1 byte)
 *   arg_t ident;               the accumulator's identity
 *   ReduceConfig config;       64 bytes, 4-aligned (ATEN_RC_*)
 *   OffsetCalculator<1, index_t> input_calc;   the reduced dims (abi.h)
 *   OffsetCalculator<2, index_t> output_calc;  kept dims: [out, in] strides
 *   const void *src; const char *dst[2]; void *acc_buf; void *cta_buf;
 *   int *semaphores; int64_t base_idx; bool accumulate; bool final_output;
 *   int noutputs;
 * Where ops and ident sit depends on ops_t's and arg_t's sizes and
 * alignments, so the offsets below are functions of those. Only index_t =
 * uint32_t (the 32-bit indexing every launch here uses) is described.
 *
 * ops_t as the decoder reads them (sizeof ops_t; arg_t size, alignment):
 *   func_wrapper_t<T, lambda(arg, arg)>   1; arg      (sum, any/all)
 *   func_wrapper_t<T, Max/MinNanFunctor<a>> 1; a      (amax, amin)
 *   MeanOps<T, acc, factor, out>          sizeof(factor) = acc; acc
 *   NormTwoOps<T, acc, out, ...>          1; acc
 *   ArgMax/ArgMinOps<acc>                 1; pair<acc, int64>: 16, 8
 *   Max/MinOps<acc>                       1; 16, 8 (two outputs: values,
 *                                         int64 indices at offset / sizeof(out) * 8)
 *   WelfordOps<T, acc, int, pair<o, o>>   2 acc; WelfordData (two outputs:
 *                                         var, mean, both out_t)
 * output_vec_size (the kernel's second template argument) 1, 2 or 4:
 * output i of a thread's vector is stored at output_calc.get(output_idx +
 * i), so every write is inside what the output calculator bounds. */
#ifndef TF_ATEN_ABI_REDUCE_H
#define TF_ATEN_ABI_REDUCE_H

#include "abi.h"

/* ReduceConfig: 14 ints, a bool, an int. */
#define ATEN_RC_ELEMENT_SIZE 0
#define ATEN_RC_NUM_INPUTS 4
#define ATEN_RC_NUM_OUTPUTS 8
#define ATEN_RC_STEP_INPUT 12
#define ATEN_RC_STEP_OUTPUT 16
#define ATEN_RC_CTAS_PER_OUTPUT 20
#define ATEN_RC_INPUT_MULT 24  /* int[3] */
#define ATEN_RC_OUTPUT_MULT 36 /* int[2] */
#define ATEN_RC_BLOCK_WIDTH 44
#define ATEN_RC_BLOCK_HEIGHT 48
#define ATEN_RC_NUM_THREADS 52
#define ATEN_RC_VECTORIZE_INPUT 56 /* bool */
#define ATEN_RC_OUTPUT_VEC_SIZE 60
#define ATEN_RC_BYTES 64

/* Offsets within ReduceOp, given sizeof/alignof(ops_t) and (arg_t). */
#define ATEN_RO_IDENT(ops_size, arg_align) ATEN_ALIGN((ops_size), (arg_align))
#define ATEN_RO_CONFIG(ops_size, arg_size, arg_align) \
    ATEN_ALIGN(ATEN_RO_IDENT(ops_size, arg_align) + (arg_size), 4)
#define ATEN_RO_INPUT_CALC(c) ((c) + ATEN_RC_BYTES)
#define ATEN_RO_OUTPUT_CALC(c) (ATEN_RO_INPUT_CALC(c) + ATEN_OC_BYTES(1))
#define ATEN_RO_SRC(c) ATEN_ALIGN(ATEN_RO_OUTPUT_CALC(c) + ATEN_OC_BYTES(2), 8)
#define ATEN_RO_DST(c) (ATEN_RO_SRC(c) + 8)           /* const char *[2] */
#define ATEN_RO_ACC_BUF(c) (ATEN_RO_SRC(c) + 24)
#define ATEN_RO_CTA_BUF(c) (ATEN_RO_SRC(c) + 32)
#define ATEN_RO_SEMAPHORES(c) (ATEN_RO_SRC(c) + 40)
#define ATEN_RO_BASE_IDX(c) (ATEN_RO_SRC(c) + 48)      /* int64_t */
#define ATEN_RO_ACCUMULATE(c) (ATEN_RO_SRC(c) + 56)    /* bool */
#define ATEN_RO_FINAL_OUTPUT(c) (ATEN_RO_SRC(c) + 57)  /* bool */
#define ATEN_RO_NOUTPUTS(c) (ATEN_RO_SRC(c) + 60)      /* int */
#define ATEN_RO_BYTES(c) (ATEN_RO_SRC(c) + 64)

/* Measured: sum of float (empty ops, float arg): config at 8, input_calc at
 * 72, output_calc at 476, src at 984, flags at 1040/1041, 1048 bytes. */
_Static_assert(ATEN_RO_CONFIG(1, 4, 4) == 8, "sum<float>: config at 8");
_Static_assert(ATEN_RO_OUTPUT_CALC(8) == 476, "sum<float>: output_calc at 476");
_Static_assert(ATEN_RO_SRC(8) == 984, "sum<float>: src at 984");
_Static_assert(ATEN_RO_FINAL_OUTPUT(8) == 1041, "sum<float>: final_output at 1041");
_Static_assert(ATEN_RO_BYTES(8) == 1048, "sum<float>: 1048 bytes");
/* max(dim) (MaxOps, arg pair<float,int64_t>: 16 bytes, 8-aligned): ident at
 * 8, config at 24; amax of half (arg c10::Half): ident at 2, config at 4;
 * var (WelfordOps {float correction; bool take_sqrt}, arg WelfordData
 * {float mean, m2; int n; float nf}): ident at 8, config at 24; mean
 * (MeanOps {float factor}): ident at 4, config at 8. */
_Static_assert(ATEN_RO_CONFIG(1, 16, 8) == 24, "MaxOps: config at 24");
_Static_assert(ATEN_RO_CONFIG(1, 2, 2) == 4, "amax<half>: config at 4");
_Static_assert(ATEN_RO_CONFIG(8, 16, 4) == 24, "WelfordOps<float>: config at 24");
_Static_assert(ATEN_RO_CONFIG(4, 4, 4) == 8, "MeanOps<float>: config at 8");

/* WelfordOps' state and WelfordData's fields (acc_t float or double). */
#define ATEN_WELFORD_OPS_BYTES(acc) (2 * (acc))        /* {acc correction; bool take_sqrt} padded */
#define ATEN_WELFORD_TAKE_SQRT(acc) (acc)
#define ATEN_WELFORD_DATA_BYTES(acc) ((acc) == 4 ? 16 : 32)

#endif
