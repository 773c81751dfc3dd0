/* Stream identity (see stream_id.h): the ids hooks give the engine, and the
 * handles replays use to reach those streams again. */
#include <stdatomic.h>

#include "hooks.h"
#include "state.h"
#include "stream_id.h"

int tf_current_device(void)
{
    int dev = -1;
    tf_fn_cudaGetDevice get = TF_REAL(cudaGetDevice);
    if (get && get(&dev) != cudaSuccess)
        dev = -1;
    return dev;
}

#define TF_LEGACY TF_ADDR(cudaStreamLegacy)
#define TF_PER_THREAD TF_ADDR(cudaStreamPerThread)
#define TF_KIND(id) ((id) & 7)

static _Atomic uint64_t tf_threads_named;
static __thread uint64_t tf_my_thread __attribute__((tls_model("initial-exec")));

static uint64_t my_thread(void)
{
    if (!tf_my_thread)
        tf_my_thread = atomic_fetch_add(&tf_threads_named, 1) + 1;
    return tf_my_thread;
}

/* The device bits of a default stream's id: which device's stream it is. */
static uint64_t device_bits(void)
{
    int dev = tf_current_device();
    return (uint64_t)(dev > 0 ? dev : 0) << 3;
}

uint64_t tf_stream_mine(void)
{
    return my_thread() << 16 | device_bits() | TF_PER_THREAD;
}

/* Handles are aligned pointers: only a default stream's id has low bits. */
static bool is_default_id(uint64_t id)
{
    return TF_KIND(id) == TF_LEGACY || TF_KIND(id) == TF_PER_THREAD;
}

uint64_t tf_stream_id(uint64_t raw, bool per_thread_entry)
{
    if (raw == TF_PER_THREAD || (raw == 0 && per_thread_entry))
        return tf_stream_mine();
    if (raw != 0 && raw != TF_LEGACY)
        return raw;
    uint64_t dev = device_bits();
    return dev ? dev | TF_LEGACY : 0;
}

/* The device is whichever is current where the handle is used: replays
 * enter the record's device before issuing on its stream. */
uint64_t tf_stream_arg(uint64_t id)
{
    if (!is_default_id(id))
        return id;
    if (TF_KIND(id) == TF_LEGACY)
        return 0;
    return id >> 16 == my_thread() ? TF_PER_THREAD : 0;
}

bool tf_stream_usable(uint64_t id)
{
    unsigned flags;
    tf_fn_cuStreamGetFlags get = TF_REAL(cuStreamGetFlags);
    tf_depth++;
    bool ok = get && get((CUstream)(uintptr_t)tf_stream_arg(id), &flags) == CUDA_SUCCESS;
    tf_depth--;
    return ok;
}
