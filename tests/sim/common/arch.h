/* The compute capability the stand-in presents (hidden in every library):
 * an H100/H200's 9.0 unless SIMCUDA_CC=<major>.<minor> names another, such
 * as 10.0 for a Blackwell B200, whose cuBLASLt runs the block-scaled MXFP8
 * and NVFP4 matmuls that Hopper refuses. */
#ifndef SIM_ARCH_H
#define SIM_ARCH_H
#include "trace.h"

/* major * 10 + minor; a malformed SIMCUDA_CC is named once on stderr and
 * 9.0 used. */
SIM_HIDDEN int sim_compute_capability(void);

#endif
