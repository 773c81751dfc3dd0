/* Instantiates the reference-kernel template named by SIM_KERNEL (a quoted
 * header name) once per accumulator width: KT float, KSUF f32, KTANH tanhf,
 * then double, f64, tanh. A template itself (no include guard); include it
 * before anything else in the file, so that the pragma below covers every
 * function there. */
/* No fused multiply-add, whatever -march says: every element must be
 * rounded the same way on every path. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <stdlib.h>

#include "elem.h"
#include "scale.h"
#include "simlt.h"
#include "trace.h"

/* Names inside a template: KFN(run_) is run_f32 or run_f64; KLOAD and
 * KSTORE are the element access of the instance's width (elem.h). */
#define KCAT_(a, b) a##b
#define KCAT(a, b) KCAT_(a, b)
#define KFN(name) KCAT(name, KSUF)
#define KLOAD KCAT(sim_load_, KSUF)
#define KSTORE KCAT(sim_store_, KSUF)

#define KT float
#define KSUF f32
#define KTANH tanhf
#include SIM_KERNEL
#undef KT
#undef KSUF
#undef KTANH

#define KT double
#define KSUF f64
#define KTANH tanh
#include SIM_KERNEL
#undef KT
#undef KSUF
#undef KTANH

#undef KCAT_
#undef KCAT
#undef KFN
#undef KLOAD
#undef KSTORE
#undef SIM_KERNEL

#ifndef SIM_KERNEL_WIDTHS_ONCE
#define SIM_KERNEL_WIDTHS_ONCE
/* The instance a scale type runs on: the f64 one (*wide; also for 32I
 * scales, whose int8 products it sums exactly) or the f32 one (16F scales
 * accumulate in f32 too), with 1 lane for real or 2 for complex
 * types; 0 lanes for a scale type the kernels do not take. */
static inline int sim_scale_lanes(cudaDataType scale, bool *wide)
{
    *wide = scale == CUDA_R_64F || scale == CUDA_C_64F || scale == CUDA_R_32I;
    switch (scale) {
    case CUDA_R_16F:
    case CUDA_R_32F:
    case CUDA_R_32I:
    case CUDA_R_64F: return 1;
    case CUDA_C_32F:
    case CUDA_C_64F: return 2;
    default: return 0;
    }
}

/* The private entry NAME(const T *) over the instances INST##f32 and
 * INST##f64: nothing to do under SIMCUDA_NOOP or for an empty problem,
 * NOT_SUPPORTED for a scale type the kernels do not take. The instances are
 * noinline: inlined here, their stack frames would be set up before the
 * SIMCUDA_NOOP return too, and the benchmarks' baseline (make bench) would
 * count that as the stand-in's cost of every GEMM. */
#define SIM_KERNEL_ENTRY(NAME, T, INST)                                 \
    cublasStatus_t NAME(const T *p)                                     \
    {                                                                   \
        if (sim_noop() || p->m <= 0 || p->n <= 0 || p->batch <= 0)      \
            return CUBLAS_STATUS_SUCCESS;                               \
        bool wide;                                                      \
        int lanes = sim_scale_lanes(p->scale, &wide);                   \
        if (lanes == 0)                                                 \
            return CUBLAS_STATUS_NOT_SUPPORTED;                         \
        return wide ? INST##f64(p, lanes) : INST##f32(p, lanes);        \
    }
#endif
