/* Argument vocabulary shared by the classic cuBLAS entry points. */
#ifndef SIMCUBLAS_ARGS_H
#define SIMCUBLAS_ARGS_H
#include <stdbool.h>
#include <stdint.h>

#include "handle.h"
#include "cublasLt/simlt.h"

/* Device addresses appear in the trace as decimal integers, like the
 * runtime stand-in's. */
#define SIMCUBLAS_PTR(p) ((unsigned long long)(uintptr_t)(p))

/* Entry points come in 32- and 64-bit integer forms and, for most BLAS
 * routines, one per element type; these expand a generator FN(SYM, NAME, IT,
 * T, DT) over both widths, and a per-type generator FN(P, T, DT) over S, D, C
 * and Z, so each routine lists its forms once. */
#define SIMCUBLAS_BOTH_WIDTHS(FN, SYM, NAME, ...) \
    FN(SYM, NAME, int, __VA_ARGS__)               \
    FN(SYM##_64, NAME "_64", int64_t, __VA_ARGS__)
#define SIMCUBLAS_SDCZ(FN)           \
    FN(S, float, CUDA_R_32F)         \
    FN(D, double, CUDA_R_64F)        \
    FN(C, cuComplex, CUDA_C_32F)     \
    FN(Z, cuDoubleComplex, CUDA_C_64F)

SIMCUBLAS_HIDDEN bool simcublas_op_ok(cublasOperation_t op);
SIMCUBLAS_HIDDEN const char *simcublas_op_name(cublasOperation_t op);
SIMCUBLAS_HIDDEN int64_t simcublas_max1(int64_t x);

/* op(X) of a column-major X (leading dimension ld, batch stride bs) as a
 * strided view: T swaps the strides, C also conjugates complex data. */
SIMCUBLAS_HIDDEN sim_mat simcublas_view(const void *base, cudaDataType type, cublasOperation_t op, int64_t ld,
                                        int64_t bs);

/* One classic GEMM call, whatever its entry point: C = alpha op(A) op(B) +
 * beta C for `batch` problems, strided (sa, sb, sc) or, with `arrays`, read
 * through device arrays of pointers. */
typedef struct simcublas_gemm {
    const char *name; /* trace op */
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    int64_t sa, sb, sc, batch;
    cudaDataType at, bt, ct, scale;
    const void *alpha, *beta;
    const void *a, *b;
    void *c;
    bool arrays;
} simcublas_gemm;

/* NOT_INITIALIZED / INVALID_VALUE exactly as cublas<t>gemm documents. */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_gemm_check(cublasHandle_t h, const simcublas_gemm *r);
/* The handle's math mode asks for TF32 tensor cores. */
SIMCUBLAS_HIDDEN bool simcublas_tf32(cublasHandle_t h);

/* Checks, then runs on the reference GEMM with a trace line named r->name
 * (none for an error or an empty problem). Types are the caller's concern. */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_gemm_run(cublasHandle_t h, const simcublas_gemm *r);

#endif
