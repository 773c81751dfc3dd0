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
    lt_xform_call c;                 /* desc and layouts are our copies */
    tf_scalar scalar[2];
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

static int issue(xform_replay *r, void *dst, uint64_t stream)
{
    lt_xform_call c = r->c;
    c.alpha = &r->scalar[0];
    c.beta = &r->scalar[1];
    c.ptr[LT_XC] = dst;
    c.stream = (cudaStream_t)(uintptr_t)stream;
    int dev = tf_device_enter(r->device);
    int st = lt_xform_invoke(&c);
    tf_device_leave(dev);
    return st;
}

static int xform_run(void *arg, uint64_t trigger)
{
    xform_replay *r = arg;
    tf_depth++;
    uint64_t stream = TF_ADDR(r->c.stream);
    int st = issue(r, (void *)(uintptr_t)r->c.ptr[LT_XC], stream);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = tf_order_after(stream, trigger);
    tf_depth--;
    return st;
}

static int xform_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    tf_depth++;
    int st = issue(arg, (void *)(uintptr_t)dst, stream);
    tf_depth--;
    return st;
}

static bool copy_descriptors(xform_replay *r, const lt_xform_call *c, const lt_xform *x)
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

tf_replay lt_xform_replay(const lt_xform_call *c, const lt_xform *x)
{
    xform_replay *r = calloc(1, sizeof *r);
    if (!r)
        return (tf_replay){0};
    r->c = *c;
    r->scalar[0] = x->scalar[0];
    r->scalar[1] = x->scalar[1];
    r->device = tf_current_device();
    if (!copy_descriptors(r, c, x)) {
        xform_release(r);
        return (tf_replay){0};
    }
    return (tf_replay){ .run = xform_run, .release = xform_release, .arg = r, .run_to = xform_run_to };
}
