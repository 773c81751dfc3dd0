/* Frees held for pending records (engine.h, tf_hold_ops): the hooks' side.
 * A stream-ordered free a pending record still reads is handed to the engine
 * instead of the real free; the engine gives it back here once the record
 * ran or died, and it is made then, on the same stream. */
#ifndef PL_STREAMS_HELD_FREE_H
#define PL_STREAMS_HELD_FREE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/state.h"

/* Bytes held at once at most (the engine runs the records beyond it). */
#define PL_HOLD_MAX_BYTES (1ull << 30)

/* Frees held now: an allocation that fails for memory retries once after
 * giving them back. */
extern TF_HIDDEN _Atomic uint64_t pl_held_now;

/* true: the free of `base` on `stream` is held; the caller must not make
 * it and returns success. */
bool pl_free_held(const void *base, uint64_t stream, const char *api);
/* An allocation on `stream` ran out of memory: true when held frees were
 * given back (their GEMMs ran, the memory returned to its pool), so that
 * trying again may succeed. */
bool pl_holds_return(uint64_t stream, const char *api);

/* A stream-ordered free: held (evaluates to `success`) or made as
 * TF_NOTED_FREE makes it. */
#define TF_NOTED_FREE_ASYNC(base, stream, api, call, success)                          \
    ({                                                                                \
        uint64_t pl_fs_ = (stream);                                                   \
        pl_free_held((base), pl_fs_, (api)) ? (success)                               \
                                            : TF_NOTED_FREE(base, pl_fs_, api, call, success); \
    })

#endif
