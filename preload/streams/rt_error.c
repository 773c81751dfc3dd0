/* See rt_error.h. */
#include "streams/rt_error.h"
#include "tables/hooks.h"

int pl_rt_error_hold(void)
{
    pl_fn_cudaPeekAtLastError peek = TF_REAL(cudaPeekAtLastError);
    return peek ? peek() : cudaSuccess;
}

void pl_rt_error_release(int held)
{
    pl_fn_cudaPeekAtLastError peek = TF_REAL(cudaPeekAtLastError);
    pl_fn_cudaGetLastError get = TF_REAL(cudaGetLastError);
    if (held == cudaSuccess && peek && get && peek() != cudaSuccess)
        get();
}
