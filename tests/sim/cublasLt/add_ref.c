/* The one reference element-wise add (private entry simcublasLt_add), used
 * by cublasLtMatrixTransform and the classic cublas<t>geam. */
/* No fused multiply-add, whatever -march says: every element must be
 * rounded the same way on every path. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "elem.h"
#include "simlt.h"
#include "trace.h"

#define KT float
#define KSUF f32
#include "add_kernel.h"
#undef KT
#undef KSUF

#define KT double
#define KSUF f64
#include "add_kernel.h"
#undef KT
#undef KSUF

cublasStatus_t simcublasLt_add(const sim_add *op)
{
    if (sim_noop() || op->m <= 0 || op->n <= 0 || op->batch <= 0)
        return CUBLAS_STATUS_SUCCESS;
    switch (op->scale) {
    case CUDA_R_16F:
    case CUDA_R_32F: add_f32(op, 1); break;
    case CUDA_C_32F: add_f32(op, 2); break;
    case CUDA_R_64F: add_f64(op, 1); break;
    case CUDA_C_64F: add_f64(op, 2); break;
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    return CUBLAS_STATUS_SUCCESS;
}
