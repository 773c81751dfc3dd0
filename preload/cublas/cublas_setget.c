/* cublas{Set,Get}{Vector,Matrix}(Async)(_64): strided copies between host
 * and device memory, modelled exactly: the device side is a view written
 * (Set) or read (Get), the host side a range read or written. Arguments
 * cuBLAS rejects (elemSize, inc or ld out of range) pass straight through:
 * nothing is copied then. */
#include "calls/describe.h"
#include "tables/hooks.h"
#include "core/state.h"

typedef struct setget {
    const char *api;
    int64_t rows, cols, elem; /* vectors: rows = n, cols = 1 */
    const void *src;
    int64_t ld_src;           /* vectors: the increments */
    const void *dst;
    int64_t ld_dst;
    bool vector, async;
    cudaStream_t stream;      /* the Async forms' */
} setget;

static bool setget_valid(const setget *c)
{
    if (c->elem <= 0 || c->elem > UINT32_MAX || c->rows < 0 || c->cols < 0)
        return false;
    if (c->vector)
        return c->ld_src > 0 && c->ld_dst > 0;
    int64_t min = c->rows > 1 ? c->rows : 1;
    return c->ld_src >= min && c->ld_dst >= min;
}

/* Whether the engine must see the call: something is pending, and cuBLAS
 * will copy at least one element. */
static bool setget_described(const setget *c)
{
    return pl_watching() && setget_valid(c) && c->rows > 0 && c->cols > 0;
}

static tf_view side(const setget *c, const void *p, int64_t ld)
{
    if (c->vector)
        return pl_vector(p, (uint32_t)c->elem, c->rows, ld);
    return pl_matrix(p, (uint32_t)c->elem, c->rows, c->cols, ld, 1, 0);
}

/* Reads the source, writes the destination: either side may be the
 * device's, and a host range never holds a pending record. The
 * synchronous forms run on the legacy stream. */
static tf_access setget_access(const setget *c)
{
    tf_access a = { .api = c->api, .stream = c->async ? TF_STREAM(c->stream) : 0 };
    tf_view from = side(c, c->src, c->ld_src);
    tf_access_read(&a, tf_view_footprint(&from));
    tf_access_write(&a, side(c, c->dst, c->ld_dst));
    return a;
}

#define SETGET_RUN(c, call)                   \
    if (!setget_described(&(c)))              \
        return TF_PASS(call);                 \
    tf_access a_ = setget_access(&(c));       \
    return TF_AS_ACCESS(a_, call)

#define VECTOR(NAME, I)                                                                              \
    cublasStatus_t NAME(I n, I elemSize, const void *x, I incx, void *y, I incy)                     \
    {                                                                                                \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                         \
        setget c = { #NAME, n, 1, elemSize, x, incx, y, incy, true, false, NULL };                   \
        SETGET_RUN(c, real(n, elemSize, x, incx, y, incy));                                          \
    }
#define VECTOR_ASYNC(NAME, I)                                                                        \
    cublasStatus_t NAME(I n, I elemSize, const void *x, I incx, void *y, I incy, cudaStream_t s)     \
    {                                                                                                \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                         \
        setget c = { #NAME, n, 1, elemSize, x, incx, y, incy, true, true, s };                       \
        SETGET_RUN(c, real(n, elemSize, x, incx, y, incy, s));                                       \
    }
#define MATRIX(NAME, I)                                                                              \
    cublasStatus_t NAME(I rows, I cols, I elemSize, const void *A, I lda, void *B, I ldb)            \
    {                                                                                                \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                         \
        setget c = { #NAME, rows, cols, elemSize, A, lda, B, ldb, false, false, NULL };              \
        SETGET_RUN(c, real(rows, cols, elemSize, A, lda, B, ldb));                                   \
    }
#define MATRIX_ASYNC(NAME, I)                                                                        \
    cublasStatus_t NAME(I rows, I cols, I elemSize, const void *A, I lda, void *B, I ldb,            \
                        cudaStream_t s)                                                              \
    {                                                                                                \
        TF_REAL_OR(NAME, TF_MISSING_CUBLAS);                                                         \
        setget c = { #NAME, rows, cols, elemSize, A, lda, B, ldb, false, true, s };                  \
        SETGET_RUN(c, real(rows, cols, elemSize, A, lda, B, ldb, s));                                \
    }

VECTOR(cublasSetVector, int)
VECTOR(cublasGetVector, int)
VECTOR(cublasSetVector_64, int64_t)
VECTOR(cublasGetVector_64, int64_t)
VECTOR_ASYNC(cublasSetVectorAsync, int)
VECTOR_ASYNC(cublasGetVectorAsync, int)
VECTOR_ASYNC(cublasSetVectorAsync_64, int64_t)
VECTOR_ASYNC(cublasGetVectorAsync_64, int64_t)
MATRIX(cublasSetMatrix, int)
MATRIX(cublasGetMatrix, int)
MATRIX(cublasSetMatrix_64, int64_t)
MATRIX(cublasGetMatrix_64, int64_t)
MATRIX_ASYNC(cublasSetMatrixAsync, int)
MATRIX_ASYNC(cublasGetMatrixAsync, int)
MATRIX_ASYNC(cublasSetMatrixAsync_64, int64_t)
MATRIX_ASYNC(cublasGetMatrixAsync_64, int64_t)
