/* The one reference GEMM of the stand-in (private entry simcublasLt_gemm),
 * used by cublasLtMatmul and by every classic cuBLAS GEMM. The accumulator
 * follows the scale type: float for 16F/32F scales (so f16 and bf16 inputs
 * accumulate in f32), double for 64F, and their complex pairs. */
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
#include "simlt.h"
#include "trace.h"

#define KT float
#define KSUF f32
#define KTANH tanhf
#include "gemm_kernel.h"
#undef KT
#undef KSUF
#undef KTANH

#define KT double
#define KSUF f64
#define KTANH tanh
#include "gemm_kernel.h"
#undef KT
#undef KSUF
#undef KTANH

cublasStatus_t simcublasLt_gemm(const sim_gemm *g)
{
    if (sim_noop() || g->m <= 0 || g->n <= 0 || g->batch <= 0)
        return CUBLAS_STATUS_SUCCESS;
    switch (g->scale) {
    case CUDA_R_16F:
    case CUDA_R_32F: return run_f32(g, 1);
    case CUDA_C_32F: return run_f32(g, 2);
    case CUDA_R_64F: return run_f64(g, 1);
    case CUDA_C_64F: return run_f64(g, 2);
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
    }
}
