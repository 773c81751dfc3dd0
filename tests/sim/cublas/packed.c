/* cublas<t>tpttr and cublas<t>trttp: a triangle between packed storage
 * (column by column, as BLAS packs it) and full storage with leading
 * dimension lda; the other triangle of the full matrix is left as it is.
 * Copies, so computed here, as the stream's work (queue.h). Arguments
 * checked as cuBLAS documents.
 * Trace: {"op":"cublasStpttr","m":n,"n":n,"a":AP,"b":0,"c":A}
 *        {"op":"cublasStrttp","m":n,"n":n,"a":A,"b":0,"c":AP}. */
#include <string.h>

#include "level3.h"
#include "queue.h"

/* Index in packed storage of (i, j) of the stored triangle. */
static int64_t packed_at(bool upper, int64_t n, int64_t i, int64_t j)
{
    return upper ? i + j * (j + 1) / 2 : i + (2 * n - j - 1) * j / 2;
}

/* to_full: AP -> A, else A -> AP. */
static void convert(bool upper, int64_t n, char *full, int64_t lda, char *ap, size_t elem, bool to_full)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = upper ? 0 : j; i < (upper ? j + 1 : n); i++) {
            char *f = full + (size_t)(i + j * lda) * elem, *p = ap + (size_t)packed_at(upper, n, i, j) * elem;
            memcpy(to_full ? f : p, to_full ? p : f, elem);
        }
}

/* The record of a conversion: uplo and the direction in the flags, the
 * element size in k, source A and destination C. */
static void run_packed(void *p)
{
    simcublas_l3_args *r = p;
    bool upper = r->uplo == CUBLAS_FILL_MODE_UPPER, to_full = r->trans != 0;
    if (to_full)
        convert(upper, r->n, r->C, r->lda, (char *)(uintptr_t)r->A, (size_t)r->k, true);
    else
        convert(upper, r->n, (char *)(uintptr_t)r->A, r->lda, r->C, (size_t)r->k, false);
}

static cublasStatus_t run(cublasHandle_t h, const char *name, cublasFillMode_t uplo, int n, const void *src,
                          void *dst, int lda, size_t elem, bool to_full)
{
    bool ok = simcublas_fill_ok(uplo) && n >= 0 && simcublas_ld_ok(lda, n);
    cublasStatus_t st = simcublas_l3_start(h, name, ok, true, NULL, 0, n, n, src, NULL, dst);
    if (!SIMCUBLAS_L3_RUN(st, n, n))
        return st;
    simcublas_l3_args r = {.uplo = uplo, .trans = to_full, .n = n, .k = (int)elem, .lda = lda, .A = src, .C = dst};
    int64_t packed = (int64_t)n * (n + 1) / 2;
    simcuda_span full = simcublas_mat_span(to_full ? dst : src, n, n, lda, elem, to_full);
    simcuda_span ap = simcublas_vec_span(to_full ? src : dst, packed, 1, elem, !to_full);
    return simcublas_queue(h, name, run_packed, &r, sizeof r, (simcuda_span[]){full, ap}, 2);
}

#define PACKED_TYPE(P, T)                                                                                    \
    cublasStatus_t cublas##P##tpttr(cublasHandle_t handle, cublasFillMode_t uplo, int n, const T *AP, T *A,  \
                                    int lda)                                                                 \
    {                                                                                                        \
        return run(handle, "cublas" #P "tpttr", uplo, n, AP, A, lda, sizeof(T), true);                       \
    }                                                                                                        \
    cublasStatus_t cublas##P##trttp(cublasHandle_t handle, cublasFillMode_t uplo, int n, const T *A, int lda, \
                                    T *AP)                                                                   \
    {                                                                                                        \
        return run(handle, "cublas" #P "trttp", uplo, n, A, AP, lda, sizeof(T), false);                      \
    }

PACKED_TYPE(S, float)
PACKED_TYPE(D, double)
PACKED_TYPE(C, cuComplex)
PACKED_TYPE(Z, cuDoubleComplex)
