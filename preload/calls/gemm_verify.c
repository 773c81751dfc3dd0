/* Verify mode: see gemm_verify.h. Correctness over speed: every step is
 * synchronous, scratch memory is allocated per call. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls/describe.h"
#include "calls/gemm_verify.h"
#include "learn/learn.h"
#include "tables/hooks.h"
#include "streams/replay.h"
#include "core/state.h"
#include "core/setup.h"
#include "streams/stream_order.h"
#include "algebra/verify.h"

bool pl_verify_enabled(void)
{
    return pl_env_now.verify;
}

/* Bitwise comparison where GEMMs give the same bits whatever their op
 * flags (TRANSFOLD_VERIFY_EXACT=1; the CPU stand-in sets it for itself),
 * else a tolerance for another summation order. Read at the first
 * comparison, once every library's constructor has run; a value other than
 * 0 or 1 is named once and read as 0 (verify only reports). */
static bool exact_results(void)
{
    static _Atomic int exact = -1;
    int x = atomic_load_explicit(&exact, memory_order_relaxed);
    if (x >= 0)
        return x;
    const char *v = secure_getenv("TRANSFOLD_VERIFY_EXACT");
    x = v && strcmp(v, "1") == 0;
    if (v && *v && !x && strcmp(v, "0") != 0)
        fprintf(stderr, "transfold: TRANSFOLD_VERIFY_EXACT=%s is not one of 0, 1; comparing with a tolerance\n", v);
    int unset = -1;
    if (!atomic_compare_exchange_strong(&exact, &unset, x))
        x = unset;
    return x;
}

/* Scratch memory through the runtime, or through the driver when there is
 * no runtime library to call (a program linked with the static runtime). */
static void *device_alloc(uint64_t bytes)
{
    void *p = NULL;
    CUdeviceptr d = 0;
    pl_fn_cudaMalloc alloc = TF_REAL(cudaMalloc);
    pl_fn_cuMemAlloc_v2 dalloc = TF_REAL(cuMemAlloc_v2);
    if (alloc)
        return alloc(&p, bytes ? bytes : 1) == cudaSuccess ? p : NULL;
    return dalloc && dalloc(&d, bytes ? bytes : 1) == CUDA_SUCCESS ? (void *)(uintptr_t)d : NULL;
}

static void device_free(void *p)
{
    pl_fn_cudaFree release = TF_REAL(cudaFree);
    pl_fn_cuMemFree_v2 drelease = TF_REAL(cuMemFree_v2);
    if (p && release)
        release(p);
    else if (p && drelease)
        drelease((CUdeviceptr)(uintptr_t)p);
}

/* (cuMemcpy: unified addressing tells the driver the direction) */
static bool copy(void *dst, const void *src, uint64_t bytes, enum cudaMemcpyKind kind)
{
    pl_fn_cudaMemcpy cp = TF_REAL(cudaMemcpy);
    pl_fn_cuMemcpy dcp = TF_REAL(cuMemcpy);
    if (cp)
        return cp(dst, src, bytes, kind) == cudaSuccess;
    return dcp && dcp((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, bytes) == CUDA_SUCCESS;
}

static uint64_t span(const tf_view *v)
{
    tf_range r = tf_view_footprint(v);
    return r.hi - r.lo;
}

/* The device-to-device copy runs on the legacy stream, which a
 * non-blocking stream does not wait for: the device is idle around it. */
static bool device_idle(void)
{
    pl_fn_cudaDeviceSynchronize sync = TF_REAL(cudaDeviceSynchronize);
    pl_fn_cuCtxSynchronize dsync = TF_REAL(cuCtxSynchronize);
    return sync ? sync() == cudaSuccess : dsync && dsync() == CUDA_SUCCESS;
}

/* A device-to-device copy with the device idle on both sides. */
static bool idle_copy(void *dst, const void *src, uint64_t bytes)
{
    return device_idle() && copy(dst, src, bytes, cudaMemcpyDeviceToDevice) && device_idle();
}

/* Before the folded call: a scratch copy of the output (its old values may
 * be read through beta). NULL when it cannot be made.
 * Scratch memory is ours: its allocation and copies run with the depth
 * raised (the runtime's driver calls must not reach the provenance table)
 * and leave the program's last error as it was. */
static void *pl_verify_snapshot(const tf_view *out)
{
    pl_depth++;
    int held = pl_rt_error_hold();
    void *s = device_alloc(span(out));
    if (s && !idle_copy(s, (const void *)(uintptr_t)out->addr, span(out))) {
        device_free(s);
        s = NULL;
    }
    pl_rt_error_release(held);
    pl_depth--;
    return s;
}

void *pl_verify_start(const tf_gemm *g)
{
    if (!pl_capture_active())
        return pl_verify_snapshot(&g->acc.writes[0]);
    tf_engine *e = pl_lock();
    if (e)
        tf_verify_skipped(e, g, TF_R_verify_capture);
    pl_unlock(e);
    return NULL;
}

/* Replays the record an operand was folded onto into scratch memory laid
 * out like its destination; *to is where the destination's (0,0) lands.
 * The scratch starts as a copy of the destination, so the elements the
 * replay does not write (ld padding, gaps between batches) are what the
 * unfolded call would read there. */
static bool replay_source(tf_engine *e, uint64_t id, uint64_t stream, uint64_t *from, uint64_t *to, void **scratch)
{
    tf_transpose_desc d;
    if (!tf_record_get(e, id, &d) || !(*scratch = device_alloc(span(&d.dst))))
        return false;
    tf_range fp = tf_view_footprint(&d.dst);
    if (!idle_copy(*scratch, (const void *)(uintptr_t)fp.lo, span(&d.dst)))
        return false;
    *from = d.dst.addr;
    *to = TF_ADDR(*scratch) + (d.dst.addr - fp.lo);
    return tf_record_run_to(e, id, *to, stream) == 0;
}

static bool replay_sources(const tf_gemm *g, const tf_plan *plan, pl_relocation *rel, void *scratch[2])
{
    bool ok = true;
    tf_engine *e = pl_lock();
    for (int i = 0; e && ok && i < g->nin; i++)
        if (plan->in[i].folded)
            ok = rel->moved[i] = replay_source(e, plan->in[i].record, g->acc.stream, &rel->from[i], &rel->to[i],
                                               &scratch[i]);
    pl_unlock(e);
    return e && ok;
}

/* Compares every batch of the output; one result for the whole call. */
static void compare(const tf_view *c, const char *dtype, const unsigned char *folded,
                    const unsigned char *unfolded, int64_t k, tf_verify_result *r)
{
    bool exact = exact_results();
    tf_verify_result b;
    memset(r, 0, sizeof *r);
    r->equal = true;
    for (int64_t i = 0; i < c->batch; i++) {
        size_t off = (size_t)(i * c->stride) * c->elem;
        tf_verify_compare(dtype, folded + off, unfolded + off, c->rows, c->cols, c->ld, k, exact, &b);
        if (!b.equal && r->equal)
            *r = b;
        else if (!b.equal)
            r->mismatches += b.mismatches;
    }
}

static void check(const tf_gemm *g, const tf_plan *plan, const char *dtype, void *snapshot)
{
    const tf_view *c = &g->acc.writes[0];
    uint64_t n = span(c);
    unsigned char *folded = malloc(n), *unfolded = malloc(n);
    tf_verify_result r;
    if (folded && unfolded && device_idle() &&
        copy(folded, (const void *)(uintptr_t)c->addr, n, cudaMemcpyDeviceToHost) &&
        copy(unfolded, snapshot, n, cudaMemcpyDeviceToHost)) {
        compare(c, dtype, folded, unfolded, g->k, &r);
        if (!r.equal && copy((void *)(uintptr_t)c->addr, snapshot, n, cudaMemcpyDeviceToDevice)) /* keep the unfolded result */
            device_idle();
        tf_engine *e = pl_lock();
        if (e)
            tf_verify_report(e, g, &r);
        for (int i = 0; e && !r.equal && i < g->nin; i++) /* a learned transpose must not fold again */
            if (plan->in[i].record)
                tf_learn_distrust(e, plan->in[i].record, TF_R_learn_verify_mismatch);
        pl_unlock(e);
    }
    free(folded);
    free(unfolded);
}

void pl_verify_gemm(const tf_gemm *g, const tf_plan *plan, const char *out_dtype, void *snapshot,
                    pl_unfolded_fn unfolded, void *ctx)
{
    pl_relocation rel = { .c_to = TF_ADDR(snapshot) };
    void *scratch[2] = { NULL, NULL };
    pl_depth++;
    int held = pl_rt_error_hold();
    if (snapshot && replay_sources(g, plan, &rel, scratch) && unfolded(ctx, &rel) == 0)
        check(g, plan, out_dtype, snapshot);
    device_free(scratch[0]);
    device_free(scratch[1]);
    device_free(snapshot);
    pl_rt_error_release(held);
    pl_depth--;
}

void pl_verify_drop(void *snapshot)
{
    pl_depth++;
    int held = pl_rt_error_hold();
    device_free(snapshot);
    pl_rt_error_release(held);
    pl_depth--;
}

/* Output folds (engine.h's tf_verify_output_fold): the GEMM as called
 * writes its own output, the transpose then runs into scratch laid out
 * like its destination (starting as a copy, for padding), and the two are
 * compared in the transpose's element type. */
static bool verify_output_fold(const tf_replay *gemm, const tf_replay *t, const tf_transpose_desc *d,
                               const char *dtype, int64_t k, tf_verify_result *r)
{
    const tf_view *v = &d->dst;
    if (pl_capture_active() || !t->run_to || !gemm->run)
        return false;
    uint64_t n = span(v), at = v->addr - tf_view_footprint(v).lo;
    unsigned char *folded = malloc(n), *unfolded = malloc(n);
    pl_depth++;
    int held = pl_rt_error_hold();
    void *scratch = device_alloc(n);
    bool ok = folded && unfolded && scratch && idle_copy(scratch, (const void *)(uintptr_t)(v->addr - at), n) &&
              gemm->run(gemm->arg, d->stream) == 0 && t->run_to(t->arg, TF_ADDR(scratch) + at, d->stream) == 0 &&
              device_idle() && copy(folded, (const void *)(uintptr_t)v->addr, n, cudaMemcpyDeviceToHost) &&
              copy(unfolded, (const char *)scratch + at, n, cudaMemcpyDeviceToHost);
    if (ok) {
        compare(v, dtype, folded, unfolded, k, r);
        if (!r->equal && copy((void *)(uintptr_t)v->addr, (const char *)scratch + at, n, cudaMemcpyDeviceToDevice))
            device_idle(); /* keep the unfolded result */
    }
    device_free(scratch);
    pl_rt_error_release(held);
    pl_depth--;
    free(folded);
    free(unfolded);
    return ok;
}

static void configure(tf_config *cfg)
{
    cfg->verify_output_fold = verify_output_fold;
}

PL_SETUP(gemm_verify, .configure = configure);
