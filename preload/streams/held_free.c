/* Frees held for deferred GEMMs (held_free.h; the engine's held.c). */
#include <stdio.h>

#include "streams/held_free.h"
#include "streams/replay.h"
#include "streams/scratch.h"
#include "streams/stream_id.h"
#include "core/setup.h"

_Atomic uint64_t pl_held_now;

tf_engine *pl_note_free_begin_async(const void *base, uint64_t stream, const char *api, bool *held)
{
    /* Another thread's per-thread default stream cannot be named from the
     * thread that will make the free. */
    bool may = base && pl_watching() && pl_stream_portable(stream);
    if (!may)
        return pl_note_free_begin(base, stream, api);
    tf_held_free f = { .base = TF_ADDR(base), .stream = stream, .ctx = pl_context_current() };
    tf_engine *e = pl_lock();
    if (e && tf_free_hold(e, &f, api)) {
        atomic_fetch_add(&pl_held_now, 1);
        *held = true;
        pl_unlock(e);
        return NULL;
    }
    if (e)
        tf_free_begin(e, f.base, stream, api);
    else
        pl_unlock(e);
    return e;
}

bool pl_holds_return(uint64_t stream, const char *api)
{
    if (!atomic_load(&pl_held_now))
        return false;
    tf_engine *e = pl_lock();
    bool returned = e && tf_holds_return(e, stream, api);
    pl_unlock(e);
    return returned;
}

static int free_issue(void *arg)
{
    const tf_held_free *f = arg;
    pl_scratch_free_on(f->base, f->stream);
    return 0;
}

/* With the engine locked, in whichever thread ran the GEMM's record out:
 * the free made in the context it was asked in, on its stream. */
static void release(void *ctx, const tf_held_free *f)
{
    (void)ctx;
    atomic_fetch_sub(&pl_held_now, 1);
    int err = pl_rt_error_hold();
    pl_replay_issue((pl_place){ -1, f->ctx }, f->stream, NULL, free_issue, (void *)f);
    pl_rt_error_release(err);
}

/* TRANSFOLD_HOLD_FREES=0: none held; TRANSFOLD_HOLD_MAX_BYTES: at most
 * so many at once (1 GiB unless set; the engine runs the records beyond). */
static void configure(tf_config *cfg)
{
    if (pl_env_now.hold_frees)
        cfg->hold = (tf_hold_ops){ release, NULL, pl_env_now.hold_max_bytes };
}

PL_SETUP(held_free, .configure = configure);
