/* The one reference element-wise add (private entry simcublasLt_add), used
 * by cublasLtMatrixTransform and the classic cublas<t>geam. */
#define SIM_KERNEL "add_kernel.h"
#include "kernel_widths.h"

SIM_KERNEL_ENTRY(simcublasLt_add, sim_add, add_)
