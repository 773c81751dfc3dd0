/* PyTorch's tensors dying (issue 20, item 5). The caching allocator keeps
 * a dead tensor's block for the next tensor and makes no CUDA call, so to
 * the hooks below it the bytes live on: a pending transpose into a
 * temporary `W.t().contiguous()` would wait for the next writer of those
 * bytes, and run when the source changed first (an optimizer step) or
 * something read the block anew. The allocator does tell its profiler hook,
 * c10::reportMemoryUsageToProfiler (hooks_c10.def), with the block and a
 * negative size, at the moment the tensor's storage is released: from then
 * on no kernel may read those bytes as that tensor, so a record writing
 * only into them is dropped, exactly as at cudaFree. */
#include <stdint.h>

#include "core/state.h"
#include "tables/hooks.h"

#define PL_C10_REPORT _ZN3c1027reportMemoryUsageToProfilerEPvlmmNS_6DeviceE
#define REAL_OF(name) TF_REAL(name) /* expands PL_C10_REPORT first */

static void storage_freed(const void *ptr, uint64_t size)
{
    uint64_t lo = (uint64_t)(uintptr_t)ptr;
    if (lo + size < lo)
        return;
    tf_engine *e = pl_lock();
    if (e)
        tf_storage_freed(e, (tf_range){ lo, lo + size }, "PyTorch (the tensor was freed)");
    pl_unlock(e);
}

TF_EXPORT void PL_C10_REPORT(void *ptr, int64_t delta, size_t allocated, size_t reserved, pl_c10_device device)
{
    __typeof__(&PL_C10_REPORT) real = REAL_OF(PL_C10_REPORT);
    if (delta < 0 && delta != INT64_MIN && ptr && device.type == PL_C10_DEVICE_CUDA && pl_watching())
        storage_freed(ptr, (uint64_t)-delta);
    if (real)
        real(ptr, delta, allocated, reserved, device);
}
