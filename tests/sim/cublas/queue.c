/* simcublas_queue (queue.h): through the one door of device work,
 * simcublasLt_enqueue. */
#include "queue.h"

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
