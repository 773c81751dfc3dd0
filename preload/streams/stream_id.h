/* Stream identity and the current device: what every hook names a stream
 * or a replay's place by. Below describe.h, which includes it. */
#ifndef TF_STREAM_ID_H
#define TF_STREAM_ID_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A pointer as the engine's 64-bit address. */
#define TF_ADDR(p) ((uint64_t)(uintptr_t)(p))

/* Stream identity. The engine folds only when a record and a GEMM name the
 * same stream, so every hook must name a stream the same way. Streams are
 * their handles, except the default streams, whose handles mean a different
 * stream on every device (and, per-thread, on every thread); their ids say
 * which (stream handles are aligned pointers, so no handle has these forms):
 *  - the legacy default stream, whether a call said 0 (non-ptsz entry point,
 *    cuBLAS handle) or cudaStreamLegacy: 0 on device 0, (device << 3) | 1
 *    on another;
 *  - a per-thread default stream (cudaStreamPerThread, or 0 at a _ptsz/_ptds
 *    entry point): (thread << 16) | (device << 3) | 2, thread > 0 unique to
 *    each thread the process ever had. */
uint64_t pl_stream_id(uint64_t raw, bool per_thread_entry);
/* This thread's per-thread default stream on the current device. */
uint64_t pl_stream_mine(void);
/* The handle that reaches stream `id` from this thread, with its device
 * current, through a non-ptsz entry point: 0 for a legacy stream,
 * cudaStreamPerThread for this thread's own per-thread stream. Another
 * thread's per-thread stream cannot be named from here; the legacy stream
 * stands in for it, since legacy work is ordered after all earlier and
 * before all later work of every blocking stream, per-thread ones
 * included. */
uint64_t pl_stream_arg(uint64_t id);

/* Whether the driver accepts stream `id` from this thread (not destroyed):
 * a deferral reports success at once, so it must not hide that error. */
bool pl_stream_usable(uint64_t id);

/* Whether pl_stream_arg names the stream `id` in any thread: all but a
 * per-thread default stream, which is its own thread's. */
bool pl_stream_portable(uint64_t id);
#define TF_STREAM(s) pl_stream_id(TF_ADDR(s), false)
#define TF_PTSZ(s) pl_stream_id(TF_ADDR(s), true)
#define TF_STREAM_PER_THREAD pl_stream_mine()

/* How many devices the process sees, once known (0 until then, or when it
 * cannot say; stream_id.c). It never changes once set, and a process that
 * sees one device is always on device 0. */
extern __attribute__((visibility("hidden"))) _Atomic int pl_devices_seen;

static inline bool pl_one_device(void)
{
    return atomic_load_explicit(&pl_devices_seen, memory_order_relaxed) == 1;
}

/* The runtime's current device, or -1 when it cannot say. Inline for the
 * one-device case, which every default stream's id and deferred geam asks. */
int pl_current_device_asked(void);
static inline int pl_current_device(void)
{
    return pl_one_device() ? 0 : pl_current_device_asked();
}

/* Whether pl_stream_id(raw, false) gives the same id from this thread on
 * whichever device is current: a stream handle (not 0, cudaStreamLegacy or
 * cudaStreamPerThread, whose ids name the current device's), or any stream
 * of a one-device process. */
static inline bool pl_stream_id_fixed(uint64_t raw)
{
    return (raw != 0 && raw != 1 && raw != 2) || pl_one_device();
}

#endif
