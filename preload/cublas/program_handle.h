/* Replays that must run on the program's own cuBLAS handle. */
#ifndef TF_CUBLAS_PROGRAM_HANDLE_H
#define TF_CUBLAS_PROGRAM_HANDLE_H
#include "cublas/handle_settings.h"
#include "tables/hooks.h"

/* call(arg) issued on handle h, on stream `on`, in host pointer mode, and
 * under `want`'s settings and workspace when given (a deferred GEMM's,
 * read when it was called; NULL: the handle's as they are). Afterwards
 * the handle is the program's again: each setting is only touched when it
 * differs, and a workspace the program set is set again after the stream
 * is put back (cublasSetStream resets it). */
int pl_on_program_handle(cublasHandle_t h, cudaStream_t on, const pl_handle_settings *want, int (*call)(void *),
                         void *arg);

#endif
