/* CPU twins of the benchmark kernels (see tests/sim/simcuda.h). */
#include "simcuda.h"

/* bench_nop(float *) in launch.cu does nothing. */
SIMCUDA_TWIN(_Z9bench_nopPf, 8)
{
    (void)launch;
    (void)params;
}
