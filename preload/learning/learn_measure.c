/* Measuring a candidate launch on the device, exactly: every allocation its
 * pointers reach is copied out; the launch runs twice, its output filled
 * with sentinel 0xA5, then 0x5A, everything restored in between; then
 * everything is restored again, so the program's own launch that follows
 * sees the device as it was. A byte is written when it differs from the
 * sentinel in either run; the engine judges the copies (learn_prove.c).
 * Driver calls only: a driver-API program may have no runtime loaded. The
 * context is synchronized around each step, so no stream's work races with
 * the copies. */
#include <stdlib.h>
#include <string.h>

#include "calls/describe.h"
#include "tables/hooks.h"
#include "learning/learning.h"
#include "learn/learn.h"
#include "streams/replay.h"
#include "core/state.h"

static int sync_all(void)
{
    pl_fn_cuCtxSynchronize s = TF_REAL(cuCtxSynchronize);
    return s ? (int)TF_PASS(s()) : -1;
}

static int copy_out(const tf_learn_plan *plan, unsigned char *const *to)
{
    pl_fn_cuMemcpyDtoH_v2 d2h = TF_REAL(cuMemcpyDtoH_v2);
    int st = sync_all();
    for (int k = 0; k < plan->nreach && !st && d2h; k++)
        st = (int)TF_PASS(d2h(to[k], plan->reach[k].lo, plan->reach[k].hi - plan->reach[k].lo));
    return d2h ? st : -1;
}

/* Every reachable allocation back to `from`, then the output filled. */
static int restore_fill(const tf_learn_plan *plan, unsigned char *const *from, int fill)
{
    pl_fn_cuMemcpyHtoD_v2 h2d = TF_REAL(cuMemcpyHtoD_v2);
    pl_fn_cuMemsetD8_v2 set = TF_REAL(cuMemsetD8_v2);
    int st = h2d && set ? sync_all() : -1;
    for (int k = 0; k < plan->nreach && !st; k++)
        st = (int)TF_PASS(h2d(plan->reach[k].lo, from[k], plan->reach[k].hi - plan->reach[k].lo));
    tf_range out = plan->reach[plan->out];
    if (!st && fill >= 0)
        st = (int)TF_PASS(set(out.lo, (unsigned char)fill, out.hi - out.lo));
    return st ? st : sync_all();
}

/* A launch captured into a graph cannot be measured now. */
static bool capturing(uint64_t stream)
{
    pl_fn_cuStreamIsCapturing is = TF_REAL(cuStreamIsCapturing);
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_NONE;
    uint64_t h = pl_stream_arg(stream);
    CUstream s = (CUstream)(uintptr_t)(h ? h : (uint64_t)(uintptr_t)CU_STREAM_LEGACY);
    return !is || TF_PASS(is(s, &cs)) != CUDA_SUCCESS || cs != CU_STREAM_CAPTURE_STATUS_NONE;
}

static int run_once(pl_launch_replay *r, uint64_t stream)
{
    return launch_issue(r, stream, NULL);
}

void learn_measure(pl_launch *l, const param_layout *p, const unsigned char *bytes, const tf_learn_plan *plan,
                   tf_learn_obs *o, unsigned char **store)
{
    size_t total = 0;
    for (int k = 0; k < plan->nreach; k++)
        total += plan->reach[k].hi - plan->reach[k].lo;
    tf_replay rp = launch_replay_new(l, p, bytes, 0);
    *store = malloc(3 * total + 1);
    o->status = -1;
    if (!*store || !rp.run || capturing(l->stream)) {
        if (rp.release)
            rp.release(rp.arg);
        return;
    }
    unsigned char *at = *store;
    for (int k = 0; k < plan->nreach; k++) {
        size_t n = plan->reach[k].hi - plan->reach[k].lo;
        o->before[k] = at, o->after_a[k] = at + n, o->after_b[k] = at + 2 * n;
        at += 3 * n;
    }
    o->sa = 0xA5, o->sb = 0x5A;
    int held = pl_rt_error_hold();
    int st = copy_out(plan, (unsigned char **)o->before);
    bool saved = st == 0;
    if (!st && !(st = restore_fill(plan, (unsigned char **)o->before, o->sa)) && !(st = run_once(rp.arg, l->stream)))
        st = copy_out(plan, (unsigned char **)o->after_a);
    if (!st && !(st = restore_fill(plan, (unsigned char **)o->before, o->sb)) && !(st = run_once(rp.arg, l->stream)))
        st = copy_out(plan, (unsigned char **)o->after_b);
    if (saved)
        st |= restore_fill(plan, (unsigned char **)o->before, -1);
    pl_rt_error_release(held);
    rp.release(rp.arg);
    o->status = st ? 1 : 0;
}
