/* The cuBLASLt handle's lifetime (its locks: locks.c). */
#include "lt/fold_cache.h"
#include "core/state.h"

/* cublasLtDestroy: a deferred transform replays through its handle, and
 * folded calls cached for the handle hold descriptors made for it. */
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle)
{
    TF_REAL_OR(cublasLtDestroy, TF_MISSING_CUBLASLT);
    if (pl_active() && handle) {
        if (pl_watching()) {
            tf_engine *e = pl_lock();
            if (e)
                tf_materialize_handle(e, TF_ADDR(handle), TF_WHY(lt_handle_destroyed));
            pl_unlock(e);
        }
        lt_fold_forget_handle(handle);
    }
    return TF_PASS(real(handle));
}
