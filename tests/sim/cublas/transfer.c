/* cublasSet/GetVector and cublasSet/GetMatrix (sync, Async, _64): strided
 * element copies between "host" and "device" memory, which are the same
 * memory here. Documented checks: elemSize > 0, inc > 0 (vectors);
 * rows, cols >= 0, lda and ldb >= max(1, rows) (matrices). Trace:
 * {"op":"cublasSetMatrix","rows":..,"cols":..,"elem":..,"src":..,"dst":..}
 * (vectors: "n" instead of rows/cols), named as called. */
#include <string.h>

#include "access.h"
#include "args.h"
#include "trace.h"

static void copy_elems(int64_t n, int64_t size, const char *src, int64_t inc_s, char *dst, int64_t inc_d)
{
    for (int64_t i = 0; i < n; i++)
        memmove(dst + i * inc_d * size, src + i * inc_s * size, (size_t)size);
}

static cublasStatus_t vector_copy(const char *name, int64_t n, int64_t size, const void *src, int64_t inc_s,
                                  void *dst, int64_t inc_d)
{
    if (n < 0 || size <= 0 || inc_s <= 0 || inc_d <= 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n == 0)
        return CUBLAS_STATUS_SUCCESS;
    sim_trace(name, "\"n\":%lld,\"elem\":%lld,\"src\":%llu,\"dst\":%llu", (long long)n, (long long)size,
              SIMCUBLAS_PTR(src), SIMCUBLAS_PTR(dst));
    if (!sim_noop())
        copy_elems(n, size, src, inc_s, dst, inc_d);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t matrix_copy(const char *name, int64_t rows, int64_t cols, int64_t size, const void *src,
                                  int64_t lds, void *dst, int64_t ldd)
{
    if (rows < 0 || cols < 0 || size <= 0 || lds < simcublas_max1(rows) || ldd < simcublas_max1(rows))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0)
        return CUBLAS_STATUS_SUCCESS;
    sim_trace(name, "\"rows\":%lld,\"cols\":%lld,\"elem\":%lld,\"src\":%llu,\"dst\":%llu", (long long)rows,
              (long long)cols, (long long)size, SIMCUBLAS_PTR(src), SIMCUBLAS_PTR(dst));
    if (sim_noop())
        return CUBLAS_STATUS_SUCCESS;
    for (int64_t j = 0; j < cols; j++)
        copy_elems(rows, size, (const char *)src + j * lds * size, 1, (char *)dst + j * ldd * size, 1);
    return CUBLAS_STATUS_SUCCESS;
}

#define VECTOR_FN(SYM, IT, SUF)                                                                      \
    cublasStatus_t SYM##SUF(IT n, IT elemSize, const void *x, IT incx, void *y, IT incy)              \
    {                                                                                                 \
        simcublas_settle(0, true);                                                                    \
        return vector_copy(#SYM #SUF, n, elemSize, x, incx, y, incy);                                 \
    }                                                                                                 \
    cublasStatus_t SYM##Async##SUF(IT n, IT elemSize, const void *x, IT incx, void *y, IT incy,       \
                                   cudaStream_t stream)                                               \
    {                                                                                                 \
        simcublas_settle(stream, false);                                                              \
        return vector_copy(#SYM "Async" #SUF, n, elemSize, x, incx, y, incy);                         \
    }

#define MATRIX_FN(SYM, IT, SUF)                                                                       \
    cublasStatus_t SYM##SUF(IT rows, IT cols, IT elemSize, const void *A, IT lda, void *B, IT ldb)    \
    {                                                                                                 \
        simcublas_settle(0, true);                                                                    \
        return matrix_copy(#SYM #SUF, rows, cols, elemSize, A, lda, B, ldb);                          \
    }                                                                                                 \
    cublasStatus_t SYM##Async##SUF(IT rows, IT cols, IT elemSize, const void *A, IT lda, void *B,     \
                                   IT ldb, cudaStream_t stream)                                       \
    {                                                                                                 \
        simcublas_settle(stream, false);                                                              \
        return matrix_copy(#SYM "Async" #SUF, rows, cols, elemSize, A, lda, B, ldb);                  \
    }

VECTOR_FN(cublasSetVector, int, )
VECTOR_FN(cublasGetVector, int, )
VECTOR_FN(cublasSetVector, int64_t, _64)
VECTOR_FN(cublasGetVector, int64_t, _64)
MATRIX_FN(cublasSetMatrix, int, )
MATRIX_FN(cublasGetMatrix, int, )
MATRIX_FN(cublasSetMatrix, int64_t, _64)
MATRIX_FN(cublasGetMatrix, int64_t, _64)
