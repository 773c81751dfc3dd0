/* Replays that must run on the program's own cuBLAS handle. */
#ifndef TF_CUBLAS_PROGRAM_HANDLE_H
#define TF_CUBLAS_PROGRAM_HANDLE_H
#include "tables/hooks.h"

/* call(arg) issued on handle h, on stream `on`, in host pointer mode. The
 * handle's stream and pointer mode are the program's again afterwards;
 * each is only touched when it differs, since cublasSetStream also resets
 * a workspace the program set with cublasSetWorkspace. */
int pl_on_program_handle(cublasHandle_t h, cudaStream_t on, int (*call)(void *), void *arg);

#endif
