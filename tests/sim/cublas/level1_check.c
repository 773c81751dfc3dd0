/* The common start of the Level-1 entry points (level1.h). */
#include "level1.h"

#include "access.h"

static __thread const char *trace_as;

void simcublas_l1_trace_as(const char *name) { trace_as = name; }

const char *simcublas_l1_name(const char *name)
{
    const char *n = trace_as ? trace_as : name;
    trace_as = NULL;
    return n;
}

static bool fits_int(int64_t v) { return v >= INT_MIN && v <= INT_MAX; }

cublasStatus_t simcublas_l1_start(cublasHandle_t h, const char *name, bool ptrs_ok, int64_t n, int64_t incx,
                                  int64_t incy, const void *x, const void *y)
{
    name = simcublas_l1_name(name);
    if (!simcublas_handle_ok(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!ptrs_ok)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!fits_int(n) || !fits_int(incx) || !fits_int(incy))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (n > 0) {
        simcublas_announce(h, (const void *[]){x, y}, 2);
        sim_trace(name, "\"n\":%lld,\"incx\":%lld,\"incy\":%lld,\"x\":%llu,\"y\":%llu", (long long)n, (long long)incx,
                  (long long)incy, SIMCUBLAS_PTR(x), SIMCUBLAS_PTR(y));
    }
    return CUBLAS_STATUS_SUCCESS;
}
