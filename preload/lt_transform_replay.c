/* The replay of a deferred cublasLtMatrixTransform: the same call on its
 * own stream and device, with descriptors copied at record time (the
 * program may change or destroy its own right after the call) and the
 * scalars copied by value. */
#include <stdlib.h>

#include "lt_build.h"
#include "lt_transform.h"
#include "replay.h"
#include "state.h"

typedef struct xform_replay {
    lt_transform_call c;                 /* desc and layouts are our copies */
    pl_scalar scalar[2];
    uint64_t stream;                 /* its stream id (pl_stream_id) */
    int device;
} xform_replay;

static void xform_release(void *arg)
{
    xform_replay *r = arg;
    lt_unbuild(LT_TRANSFORM, r->c.desc);
    for (int i = 0; i < 3; i++)
        lt_unbuild(LT_LAYOUT, r->c.lay[i]);
    free(r);
}

static int xform_invoke(void *c) { return lt_transform_invoke(c); }

/* The call on stream id `stream`, writing to `dst`; with `trigger`, that
 * stream is then ordered after it. */
static int issue(xform_replay *r, void *dst, uint64_t stream, const uint64_t *trigger)
{
    lt_transform_call c = r->c;
    c.alpha = &r->scalar[0];
    c.beta = &r->scalar[1];
    c.ptr[LT_XC] = dst;
    c.stream = (cudaStream_t)(uintptr_t)pl_stream_arg(stream);
    return pl_replay_issue((pl_place){ r->device, NULL }, stream, trigger, xform_invoke, &c);
}

static int xform_run(void *arg, uint64_t trigger)
{
    xform_replay *r = arg;
    return issue(r, (void *)(uintptr_t)r->c.ptr[LT_XC], r->stream, &trigger);
}

static int xform_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    return issue(arg, (void *)(uintptr_t)dst, stream, NULL);
}

static bool copy_descriptors(xform_replay *r, const lt_transform_call *c, const lt_transform *x)
{
    r->c.desc = lt_clone(LT_TRANSFORM, c->desc);
    bool ok = r->c.desc != NULL;
    for (int i = 0; i < 3; i++) {
        bool needed = i == LT_XC || x->has[i];
        r->c.lay[i] = needed ? lt_clone(LT_LAYOUT, c->lay[i]) : NULL;
        ok = ok && (!needed || r->c.lay[i]);
    }
    return ok;
}

tf_replay lt_transform_replay(const lt_transform_call *c, const lt_transform *x)
{
    xform_replay *r = calloc(1, sizeof *r);
    if (!r)
        return (tf_replay){0};
    r->c = *c;
    r->scalar[0] = x->scalar[0];
    r->scalar[1] = x->scalar[1];
    r->stream = TF_STREAM(c->stream);
    r->device = pl_current_device();
    if (!copy_descriptors(r, c, x)) {
        xform_release(r);
        return (tf_replay){0};
    }
    return (tf_replay){ .run = xform_run, .release = xform_release, .arg = r, .run_to = xform_run_to };
}
