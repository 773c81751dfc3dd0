/* Replays on the program's own cuBLAS handle (program_handle.h). */
#include "cublas/program_handle.h"

int pl_on_program_handle(cublasHandle_t h, cudaStream_t on, int (*call)(void *), void *arg)
{
    cudaStream_t old_stream = NULL;
    cublasPointerMode_t old_mode = CUBLAS_POINTER_MODE_HOST;
    TF_REAL(cublasGetStream_v2)(h, &old_stream);
    TF_REAL(cublasGetPointerMode_v2)(h, &old_mode);
    if (old_stream != on)
        TF_REAL(cublasSetStream_v2)(h, on);
    if (old_mode != CUBLAS_POINTER_MODE_HOST)
        TF_REAL(cublasSetPointerMode_v2)(h, CUBLAS_POINTER_MODE_HOST);
    int st = call(arg);
    if (old_mode != CUBLAS_POINTER_MODE_HOST)
        TF_REAL(cublasSetPointerMode_v2)(h, old_mode);
    if (old_stream != on)
        TF_REAL(cublasSetStream_v2)(h, old_stream);
    return st;
}
