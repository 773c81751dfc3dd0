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

/* Frees held now: an allocation that fails for memory retries once after
 * giving them back. */
extern TF_HIDDEN _Atomic uint64_t pl_held_now;

/* pl_note_free_begin for a stream-ordered free: *held true when the free
 * is held instead (the caller must not make it; NULL returned, nothing
 * locked). */
tf_engine *pl_note_free_begin_async(const void *base, uint64_t stream, const char *api, bool *held);
/* An allocation on `stream` ran out of memory: true when held frees were
 * given back (their GEMMs ran, the memory returned to its pool), so that
 * trying again may succeed. */
bool pl_holds_return(uint64_t stream, const char *api);

/* A stream-ordered free: held (evaluates to `success`) or made as
 * TF_NOTED_FREE makes it, under one lock either way. */
#define TF_NOTED_FREE_ASYNC(base, stream, api, call, success)                                   \
    ({                                                                                         \
        bool pl_held_ = false;                                                                 \
        tf_engine *pl_fe_ = pl_note_free_begin_async((base), (stream), (api), &pl_held_);      \
        __typeof__(call) pl_fr_ = (success);                                                   \
        if (!pl_held_) {                                                                       \
            pl_fr_ = TF_PASS(call);                                                            \
            pl_note_free_end(pl_fe_, (base), (api), pl_fr_ == (success));                      \
        }                                                                                      \
        pl_fr_;                                                                                \
    })

#endif
