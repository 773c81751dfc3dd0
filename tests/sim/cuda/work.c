/* Checking, running and tracing one item of device work (see work.h). */
#include "work.h"
#include "async.h"

#include <stdlib.h>
#include <string.h>

static bool range_ok(const void *p, size_t n)
{
    void *base;
    size_t size;
    if (n == 0)
        return true;
    return sim_lookup(p, &base, &size, NULL) && (size_t)((const char *)p - (const char *)base) + n <= size;
}

/* Extent of `height` rows of `width` bytes, `pitch` apart. */
static size_t extent(size_t pitch, size_t width, size_t height)
{
    return height ? pitch * (height - 1) + width : 0;
}

static bool rows_ok(const char *p, bool dev, size_t pitch, size_t width, size_t height)
{
    if (!width || !height)
        return true;
    if (!p || (height > 1 && pitch < width))
        return false;
    return !dev || range_ok(p, extent(pitch, width, height));
}

static CUresult check(const struct sim_work *w)
{
    switch (w->kind) {
    case SIM_WORK_COPY:
        return rows_ok(w->u.copy.dst, w->u.copy.dev_dst, w->u.copy.n, w->u.copy.n, 1) &&
               rows_ok(w->u.copy.src, w->u.copy.dev_src, w->u.copy.n, w->u.copy.n, 1)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case SIM_WORK_COPY2D:
        return rows_ok(w->u.copy2d.dst, w->u.copy2d.dev_dst, w->u.copy2d.dpitch, w->u.copy2d.width, w->u.copy2d.height) &&
               rows_ok(w->u.copy2d.src, w->u.copy2d.dev_src, w->u.copy2d.spitch, w->u.copy2d.width, w->u.copy2d.height)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case SIM_WORK_SET:
    case SIM_WORK_SET2D:
        return rows_ok(w->u.set.dst, true, w->u.set.pitch, w->u.set.width * w->u.set.elem, w->u.set.height)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case SIM_WORK_KERNEL:
        /* A kernel with no twin has, in effect, no code for this device. */
        if (w->u.kernel.f->fn)
            return CUDA_SUCCESS;
        sim_function_missing(w->u.kernel.f);
        return CUDA_ERROR_NOT_FOUND;
    case SIM_WORK_HOST:
        return w->u.host.fn ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case SIM_WORK_TASK:
        return CUDA_SUCCESS;
    case SIM_WORK_FREE:
        return range_ok(w->u.free.ptr, 1) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

static void fill_row(char *p, unsigned value, unsigned elem, size_t count)
{
    unsigned char v8 = (unsigned char)value;
    unsigned short v16 = (unsigned short)value;
    if (elem == 1) {
        memset(p, v8, count);
        return;
    }
    const void *v = elem == 2 ? (const void *)&v16 : (const void *)&value;
    for (size_t i = 0; i < count; i++)
        memcpy(p + i * elem, v, elem);
}

static void execute(const struct sim_work *w)
{
    switch (w->kind) {
    case SIM_WORK_COPY:
        if (w->u.copy.n)
            memmove(w->u.copy.dst, w->u.copy.src, w->u.copy.n);
        break;
    case SIM_WORK_COPY2D:
        for (size_t r = 0; r < w->u.copy2d.height; r++)
            memmove(w->u.copy2d.dst + r * w->u.copy2d.dpitch, w->u.copy2d.src + r * w->u.copy2d.spitch,
                    w->u.copy2d.width);
        break;
    case SIM_WORK_SET:
    case SIM_WORK_SET2D:
        for (size_t r = 0; r < w->u.set.height; r++)
            fill_row(w->u.set.dst + r * w->u.set.pitch, w->u.set.value, w->u.set.elem, w->u.set.width);
        break;
    case SIM_WORK_KERNEL:
        w->u.kernel.f->fn(&w->u.kernel.l, w->u.kernel.params);
        break;
    case SIM_WORK_HOST:
    case SIM_WORK_TASK:
    case SIM_WORK_FREE:
        break; /* run by sim_work_run even under SIMCUDA_NOOP */
    }
}

#define P(x) ((unsigned long)(uintptr_t)(x))

static void trace_kernel(const struct sim_work *w, const char *graph)
{
    char name[512];
    const simcuda_launch *l = &w->u.kernel.l;
    sim_json_escape(name, sizeof name, w->u.kernel.f->name);
    sim_trace("kernel", "\"name\":\"%s\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared\":%zu,\"stream\":\"0x%lx\",\"api\":\"%s\"%s",
              name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->shared_mem,
              P(w->stream), w->op, graph);
}

static void trace(const struct sim_work *w, bool replay)
{
    const char *graph = replay ? ",\"graph\":true" : "";
    if (!sim_trace_enabled())
        return;
    switch (w->kind) {
    case SIM_WORK_COPY:
        sim_trace(w->op, "\"dst\":\"0x%lx\",\"src\":\"0x%lx\",\"bytes\":%zu,\"stream\":\"0x%lx\"%s",
                  P(w->u.copy.dst), P(w->u.copy.src), w->u.copy.n, P(w->stream), graph);
        break;
    case SIM_WORK_COPY2D:
        sim_trace(w->op, "\"dst\":\"0x%lx\",\"dpitch\":%zu,\"src\":\"0x%lx\",\"spitch\":%zu,\"width\":%zu,\"height\":%zu,\"stream\":\"0x%lx\"%s",
                  P(w->u.copy2d.dst), w->u.copy2d.dpitch, P(w->u.copy2d.src), w->u.copy2d.spitch, w->u.copy2d.width,
                  w->u.copy2d.height, P(w->stream), graph);
        break;
    case SIM_WORK_SET:
        sim_trace(w->op, "\"dst\":\"0x%lx\",\"value\":%u,\"bytes\":%zu,\"stream\":\"0x%lx\"%s", P(w->u.set.dst),
                  w->u.set.value, w->u.set.width * w->u.set.elem, P(w->stream), graph);
        break;
    case SIM_WORK_SET2D:
        sim_trace(w->op, "\"dst\":\"0x%lx\",\"pitch\":%zu,\"value\":%u,\"width\":%zu,\"height\":%zu,\"stream\":\"0x%lx\"%s",
                  P(w->u.set.dst), w->u.set.pitch, w->u.set.value, w->u.set.width * w->u.set.elem, w->u.set.height,
                  P(w->stream), graph);
        break;
    case SIM_WORK_KERNEL:
        trace_kernel(w, graph);
        break;
    case SIM_WORK_HOST:
        sim_trace(w->op, "\"stream\":\"0x%lx\"%s", P(w->stream), graph);
        break;
    case SIM_WORK_TASK:
        break; /* the task writes its own line */
    case SIM_WORK_FREE:
        sim_trace(w->op, "\"ptr\":\"0x%lx\"", P(w->u.free.ptr));
        break;
    }
}

CUresult sim_work_run(const struct sim_work *w, bool replay)
{
    CUresult r = check(w);
    if (r != CUDA_SUCCESS)
        return r;
    if (w->kind == SIM_WORK_HOST)
        w->u.host.fn(w->u.host.data);
    else if (w->kind == SIM_WORK_TASK)
        r = sim_task_run(w->u.task.t) == 0 ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_FAILED;
    else if (w->kind == SIM_WORK_FREE)
        r = sim_free(w->u.free.ptr, SIM_MEM_DEVICE);
    else if (!sim_noop())
        execute(w);
    trace(w, replay);
    return r;
}

CUresult sim_submit(struct sim_work *w, const char *api, bool host_waits)
{
    if (!sim_stream_ok(w->stream))
        return CUDA_ERROR_INVALID_HANDLE;
    CUresult r = check(w);
    if (r != CUDA_SUCCESS)
        return r;
    if (sim_capturing(w->stream))
        return sim_capture_append(w->stream, w);
    if (host_waits && sim_capture_forbids())
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (sim_queued())
        return sim_enqueue(w, sim_api_per_thread(api), host_waits, false);
    return sim_work_run(w, false);
}

/* Kernel parameters are copied by value, as a real capture does; their
 * sizes come from the twin's simcuda_params_<name>. */
static CUresult clone_params(struct sim_work *dst, const struct sim_work *src)
{
    const size_t *sizes = src->u.kernel.f->param_sizes;
    size_t n = 0, total = 0, off;
    if (!sizes)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    for (; sizes[n]; n++)
        total += sizes[n] + 8; /* room for alignment padding */
    char *blob = malloc(n * sizeof(void *) + total + 1);
    if (!blob)
        return CUDA_ERROR_OUT_OF_MEMORY;
    void **ptrs = (void **)blob;
    off = n * sizeof(void *);
    for (size_t i = 0; i < n; i++) {
        off = (off + 7) / 8 * 8;
        ptrs[i] = memcpy(blob + off, src->u.kernel.params[i], sizes[i]);
        off += sizes[i];
    }
    dst->u.kernel.params = ptrs;
    dst->u.kernel.blob = blob;
    return CUDA_SUCCESS;
}

/* A queued copy from pageable host memory reads it at call time, as the
 * driver stages it then; a graph's copy reads it when it runs. */
static CUresult snapshot_source(struct sim_work *dst)
{
    if (dst->kind != SIM_WORK_COPY || dst->u.copy.dev_src || !dst->u.copy.n || sim_lookup(dst->u.copy.src, NULL, NULL, NULL))
        return CUDA_SUCCESS;
    dst->owned = malloc(dst->u.copy.n);
    if (!dst->owned)
        return CUDA_ERROR_OUT_OF_MEMORY;
    dst->u.copy.src = memcpy(dst->owned, dst->u.copy.src, dst->u.copy.n);
    return CUDA_SUCCESS;
}

CUresult sim_work_clone(struct sim_work *dst, const struct sim_work *src)
{
    *dst = *src;
    dst->owned = NULL;
    if (src->kind == SIM_WORK_TASK)
        sim_task_retain(src->u.task.t);
    if (src->kind == SIM_WORK_COPY && sim_queued() && !sim_capturing(src->stream))
        return snapshot_source(dst);
    if (src->kind != SIM_WORK_KERNEL)
        return CUDA_SUCCESS;
    return clone_params(dst, src);
}

void sim_work_release(struct sim_work *w)
{
    if (w->kind == SIM_WORK_KERNEL) {
        free(w->u.kernel.blob);
        w->u.kernel.blob = NULL;
    }
    if (w->kind == SIM_WORK_TASK)
        sim_task_put(w->u.task.t);
    free(w->owned);
    w->owned = NULL;
}
