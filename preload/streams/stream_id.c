/* Stream identity (see stream_id.h): the ids hooks give the engine, and the
 * handles replays use to reach those streams again. */
#include <stdatomic.h>

#include "tables/hooks.h"
#include "core/state.h"
#include "streams/rt_error.h"
#include "streams/stream_id.h"

/* How many devices the process sees, asked once the runtime (or, without
 * one, the driver) has answered the current device (0 until then, or when
 * it cannot say): the number cannot change in a process's lifetime. */
_Atomic int pl_devices_seen;

static void count_devices(bool runtime)
{
    int n = 0;
    if (runtime) {
        pl_fn_cudaGetDeviceCount count = TF_REAL(cudaGetDeviceCount);
        int held = pl_rt_error_hold();
        if (count && count(&n) != cudaSuccess)
            pl_rt_error_release(held), n = 0;
    } else {
        pl_fn_cuDeviceGetCount count = TF_REAL(cuDeviceGetCount);
        if (count && count(&n) != CUDA_SUCCESS)
            n = 0;
    }
    atomic_store_explicit(&pl_devices_seen, n, memory_order_relaxed);
}

/* Not guarded by pl_rt_error_hold, since it is on every described call's
 * path: cudaGetDevice only fails where the runtime cannot run at all, and
 * then the program's own calls report that same error. A process that sees
 * one device is always on device 0, and is not asked again (every default
 * stream's id and every deferred geam asks). Without a runtime library (a
 * program linked with the static runtime): the device of the current
 * driver context, which the runtime made current. */
int pl_current_device_asked(void)
{
    int dev = -1, seen = atomic_load_explicit(&pl_devices_seen, memory_order_relaxed);
    if (seen == 1)
        return 0;
    pl_fn_cudaGetDevice get = TF_REAL(cudaGetDevice);
    if (get) {
        if (get(&dev) != cudaSuccess)
            dev = -1;
    } else {
        CUdevice d = -1;
        pl_fn_cuCtxGetDevice drv = TF_REAL(cuCtxGetDevice);
        dev = drv && drv(&d) == CUDA_SUCCESS ? (int)d : -1;
    }
    if (seen == 0 && dev >= 0)
        count_devices(get != NULL);
    return dev;
}

#define TF_LEGACY TF_ADDR(cudaStreamLegacy)
#define TF_PER_THREAD TF_ADDR(cudaStreamPerThread)
#define TF_KIND(id) ((id) & 7)

static _Atomic uint64_t pl_threads_named;
static __thread uint64_t pl_my_thread __attribute__((tls_model("initial-exec")));

static uint64_t my_thread(void)
{
    if (!pl_my_thread)
        pl_my_thread = atomic_fetch_add(&pl_threads_named, 1) + 1;
    return pl_my_thread;
}

/* The device bits of a default stream's id: which device's stream it is. */
static uint64_t device_bits(void)
{
    int dev = pl_current_device();
    return (uint64_t)(dev > 0 ? dev : 0) << 3;
}

uint64_t pl_stream_mine(void)
{
    return my_thread() << 16 | device_bits() | TF_PER_THREAD;
}

/* Handles are aligned pointers: only a default stream's id has low bits. */
static bool is_default_id(uint64_t id)
{
    return TF_KIND(id) == TF_LEGACY || TF_KIND(id) == TF_PER_THREAD;
}

uint64_t pl_stream_id(uint64_t raw, bool per_thread_entry)
{
    if (raw == TF_PER_THREAD || (raw == 0 && per_thread_entry))
        return pl_stream_mine();
    if (raw != 0 && raw != TF_LEGACY)
        return raw;
    uint64_t dev = device_bits();
    return dev ? dev | TF_LEGACY : 0;
}

/* The device is whichever is current where the handle is used: replays
 * enter the record's device before issuing on its stream. */
uint64_t pl_stream_arg(uint64_t id)
{
    if (!is_default_id(id))
        return id;
    if (TF_KIND(id) == TF_LEGACY)
        return 0;
    return id >> 16 == my_thread() ? TF_PER_THREAD : 0;
}

bool pl_stream_portable(uint64_t id)
{
    return TF_KIND(id) != TF_PER_THREAD;
}

bool pl_stream_usable(uint64_t id)
{
    unsigned flags;
    pl_fn_cuStreamGetFlags get = TF_REAL(cuStreamGetFlags);
    pl_depth++;
    bool ok = get && get((CUstream)(uintptr_t)pl_stream_arg(id), &flags) == CUDA_SUCCESS;
    pl_depth--;
    return ok;
}
