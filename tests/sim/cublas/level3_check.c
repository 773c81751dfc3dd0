/* Argument checks and CBLAS flags of the Level-3 entry points (level3.h). */
#include "level3.h"

#include "access.h"

#include <limits.h>
#include <string.h>

static __thread const char *trace_as;

void simcublas_l3_trace_as(const char *name) { trace_as = name; }

void simcublas_l3_scalars(cublasHandle_t h, simcublas_l3_args *a, const void *alpha, size_t size_a, const void *beta,
                          size_t size_b)
{
    bool host = h->pointer_mode == CUBLAS_POINTER_MODE_HOST;
    if (alpha && host)
        memcpy(a->alpha, alpha, size_a);
    if (beta && host)
        memcpy(a->beta, beta, size_b);
    a->alpha_dev = host ? NULL : alpha;
    a->beta_dev = host ? NULL : beta;
}

cublasStatus_t simcublas_l3_start(cublasHandle_t h, const char *name, bool args_ok, bool ptrs_ok, const int64_t *ints,
                                  size_t nints, int64_t m, int64_t n, const void *a, const void *b, const void *c)
{
    if (trace_as) {
        name = trace_as;
        trace_as = NULL;
    }
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!args_ok || !ptrs_ok)
        return CUBLAS_STATUS_INVALID_VALUE;
    for (size_t i = 0; i < nints; i++)
        if (ints[i] > INT_MAX)
            return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m > 0 && n > 0) {
        simcublas_announce(h, (const void *[]){a, b, c}, 3);
        sim_trace(name, "\"m\":%lld,\"n\":%lld,\"a\":%llu,\"b\":%llu,\"c\":%llu", (long long)m, (long long)n,
                  SIMCUBLAS_PTR(a), SIMCUBLAS_PTR(b), SIMCUBLAS_PTR(c));
    }
    return CUBLAS_STATUS_SUCCESS;
}

bool simcublas_side_ok(cublasSideMode_t s) { return s == CUBLAS_SIDE_LEFT || s == CUBLAS_SIDE_RIGHT; }
bool simcublas_fill_ok(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER || f == CUBLAS_FILL_MODE_UPPER; }
bool simcublas_diag_ok(cublasDiagType_t d) { return d == CUBLAS_DIAG_NON_UNIT || d == CUBLAS_DIAG_UNIT; }
bool simcublas_ld_ok(int64_t ld, int64_t rows) { return ld >= simcublas_max1(rows); }

CBLAS_SIDE simcublas_cblas_side(cublasSideMode_t s) { return s == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight; }
CBLAS_UPLO simcublas_cblas_uplo(cublasFillMode_t f) { return f == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper; }
CBLAS_DIAG simcublas_cblas_diag(cublasDiagType_t d) { return d == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit; }

CBLAS_TRANSPOSE simcublas_cblas_trans(cublasOperation_t op, bool cplx)
{
    if (op == CUBLAS_OP_N)
        return CblasNoTrans;
    return op == CUBLAS_OP_C && cplx ? CblasConjTrans : CblasTrans;
}
