/* Shared by the Level-3 entry points beyond GEMM (level3_*.c): symm, hemm,
 * syrk, herk, syr2k, her2k, trmm, trsm on the reference CBLAS (libblas),
 * column-major, 32-bit sizes. Every argument is checked here first, as
 * cuBLAS documents (INVALID_VALUE), because CBLAS's own check of a bad
 * argument ends the process. */
#ifndef SIMCUBLAS_LEVEL3_H
#define SIMCUBLAS_LEVEL3_H
#include <cblas.h>

#include "args.h"
#include "trace.h"

/* NOT_INITIALIZED for a bad handle, INVALID_VALUE unless args_ok (flags,
 * sizes, leading dimensions as the routine requires) and ptrs_ok (alpha,
 * beta non-NULL), NOT_SUPPORTED when one of ints[] is beyond CBLAS's int;
 * then, when m x n is not empty, the launch that announces a, b and c
 * (access.h) and the trace line {"op":name,"m":m,"n":n,"a":..,"b":..,"c":..};
 * the computation is then queued as the stream's work. */
SIMCUBLAS_HIDDEN cublasStatus_t simcublas_l3_start(cublasHandle_t h, const char *name, bool args_ok, bool ptrs_ok,
                                                   const int64_t *ints, size_t nints, int64_t m, int64_t n,
                                                   const void *a, const void *b, const void *c);

/* The arguments of a queued Level-2 or Level-3 call, as CBLAS takes them:
 * flags, sizes, leading dimensions and strides, operands, and alpha and
 * beta (values read now in host pointer mode, else their device
 * addresses). Each routine's runner reads the fields it has. */
typedef struct simcublas_l3_args {
    int side, uplo, trans, diag;
    int m, n, k, lda, ldb, ldc, incx, incy;
    const void *A, *B, *x;
    void *C, *y;
    unsigned char alpha[16], beta[16];
    const void *alpha_dev, *beta_dev;
} simcublas_l3_args;
/* Keeps alpha (size_a bytes) and beta (size_b; beta may be NULL). */
SIMCUBLAS_HIDDEN void simcublas_l3_scalars(cublasHandle_t h, simcublas_l3_args *a, const void *alpha, size_t size_a,
                                           const void *beta, size_t size_b);
/* alpha and beta as pointers to T, for the runner. */
#define SIMCUBLAS_L3_ALPHA(T, a) ((const T *)((a)->alpha_dev ? (a)->alpha_dev : (const void *)(a)->alpha))
#define SIMCUBLAS_L3_BETA(T, a) ((const T *)((a)->beta_dev ? (a)->beta_dev : (const void *)(a)->beta))

/* The trace op of the next Level-3 call on this thread, set by an Ex entry
 * point (complex_ex.c) that runs as a typed routine; consumed by the call. */
SIMCUBLAS_HIDDEN void simcublas_l3_trace_as(const char *name);

SIMCUBLAS_HIDDEN bool simcublas_side_ok(cublasSideMode_t s);
SIMCUBLAS_HIDDEN bool simcublas_fill_ok(cublasFillMode_t f); /* lower or upper */
SIMCUBLAS_HIDDEN bool simcublas_diag_ok(cublasDiagType_t d);
/* ld >= max(1, rows). */
SIMCUBLAS_HIDDEN bool simcublas_ld_ok(int64_t ld, int64_t rows);

SIMCUBLAS_HIDDEN CBLAS_SIDE simcublas_cblas_side(cublasSideMode_t s);
SIMCUBLAS_HIDDEN CBLAS_UPLO simcublas_cblas_uplo(cublasFillMode_t f);
SIMCUBLAS_HIDDEN CBLAS_DIAG simcublas_cblas_diag(cublasDiagType_t d);
/* For a real type, C is T (cuBLAS accepts it; CBLAS's syrk would not). */
SIMCUBLAS_HIDDEN CBLAS_TRANSPOSE simcublas_cblas_trans(cublasOperation_t op, bool cplx);

/* Whether the arithmetic should run: a successful start with work to do. */
#define SIMCUBLAS_L3_RUN(st, m, n) ((st) == CUBLAS_STATUS_SUCCESS && (m) > 0 && (n) > 0 && !sim_noop())
#define SIMCUBLAS_L3_INTS(...) (const int64_t[]){__VA_ARGS__}, sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)

/* A scalar as CBLAS takes it: real by value, complex by address. */
#define SIMCUBLAS_L3_VAL_S(p) (*(p))
#define SIMCUBLAS_L3_VAL_D(p) (*(p))
#define SIMCUBLAS_L3_VAL_C(p) ((const void *)(p))
#define SIMCUBLAS_L3_VAL_Z(p) ((const void *)(p))
#define SIMCUBLAS_L3_CPLX_S false
#define SIMCUBLAS_L3_CPLX_D false
#define SIMCUBLAS_L3_CPLX_C true
#define SIMCUBLAS_L3_CPLX_Z true

#endif
