/* simcublas_queue (queue.h): through the one door of device work,
 * simcublasLt_enqueue. */
#include "queue.h"

#include "access.h"
#include "args.h"

simcuda_span simcublas_vec_span(const void *x, int64_t n, int64_t inc, size_t es, bool write)
{
    int64_t step = inc < 0 ? -inc : inc;
    size_t width = n > 0 ? (size_t)((n - 1) * step + 1) * es : 0;
    return (simcuda_span){x, width, width, 1, write};
}

simcuda_span simcublas_mat_span(const void *a, int64_t rows, int64_t cols, int64_t ld, size_t es, bool write)
{
    return (simcuda_span){a, (size_t)rows * es, (size_t)ld * es, (size_t)cols, write};
}

cublasStatus_t simcublas_queue(cublasHandle_t h, const char *op, void (*fn)(void *), const void *args, size_t size,
                               const simcuda_span *spans, size_t n)
{
    simlt_host_work host = {fn, args, size, spans, n};
    return simcublasLt_enqueue(h->stream, &(simlt_work){.op = op, .host = &host});
}

cublasStatus_t simcublas_queue_result(cublasHandle_t h, const char *op, void (*fn)(void *), const void *args,
                                      size_t size, const simcuda_span *spans, size_t n)
{
    cublasStatus_t st = simcublas_queue(h, op, fn, args, size, spans, n);
    if (st == CUBLAS_STATUS_SUCCESS && h->pointer_mode == CUBLAS_POINTER_MODE_HOST)
        simcublas_settle(h->stream, false);
    return st;
}

simcuda_span simcublas_result_span(cublasHandle_t h, const void *p, size_t bytes)
{
    bool dev = h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    return (simcuda_span){dev ? p : NULL, dev ? bytes : 0, dev ? bytes : 0, 1, true};
}
