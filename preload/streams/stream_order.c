/* What the hooks of calls that order streams (stream_hooks.c) and of
 * captures (capture.c) keep: how many captures are under way, and which
 * streams joined one. Those calls order streams against each other or
 * against the host, where a replay queued later would land in the wrong
 * place:
 * - a host function (cudaLaunchHostFunc, cudaStreamAddCallback, driver
 *   forms): a replay queued behind one waits for it, and if the function
 *   waits for the host, for whatever the host does next; a synchronize on a
 *   stream ordered after the replay would never return. Every pending
 *   record runs before a host function is queued (a host function on the
 *   legacy stream holds up every blocking stream, an event can carry it to
 *   any other);
 * - an event wait that makes a stream join a capture (the event was
 *   recorded in a capturing stream): the stream's records run before it
 *   joins, so that no GEMM folded onto them is captured and no replay of
 *   them lands in the graph. Streams that joined are remembered, and their
 *   records (captured ones) run before the capture ends. */
#include "core/state.h"
#include "streams/events.h"
#include "streams/stream_id.h"
#include "streams/stream_order.h"

#include <stdatomic.h>

_Atomic int pl_captures_now; /* captures begun and not yet ended, roughly */

#define TF_MAX_JOINED 64
static uint64_t joined[TF_MAX_JOINED];
static int njoined;

bool pl_stream_capturing(uint64_t stream)
{
    return pl_stream_is_capturing((void *)(uintptr_t)pl_stream_arg(stream));
}

bool pl_capture_active(void)
{
    return atomic_load(&pl_captures_now) > 0;
}

void pl_captures_changed(int delta)
{
    atomic_fetch_add(&pl_captures_now, delta);
}

void pl_capture_joined_add(uint64_t stream)
{
    tf_engine *e = pl_lock();
    if (njoined < TF_MAX_JOINED)
        joined[njoined++] = stream;
    pl_unlock(e);
}

void pl_capture_joined_end(void)
{
    tf_engine *e = pl_lock();
    int n = njoined;
    uint64_t s[TF_MAX_JOINED];
    for (int i = 0; i < n; i++)
        s[i] = joined[i];
    njoined = 0;
    pl_unlock(e);
    for (int i = 0; i < n; i++)
        pl_note_materialize_stream(s[i], TF_WHY(capture_ends));
}
