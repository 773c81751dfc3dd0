/* The one reference GEMM of the stand-in (private entry simcublasLt_gemm),
 * used by cublasLtMatmul and by every classic cuBLAS GEMM. The accumulator
 * follows the scale type: float for 16F/32F scales (so f16 and bf16 inputs
 * accumulate in f32), double for 64F, and their complex pairs. */
#define SIM_KERNEL "gemm_kernel.h"
#include "kernel_widths.h"

SIM_KERNEL_ENTRY(simcublasLt_gemm, sim_gemm, run_)
