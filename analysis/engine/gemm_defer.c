/* Output-side folding, (AB)^T = B^T A^T (on unless TRANSFOLD_OUTPUT_FOLD=0).
 *
 * A GEMM whose output nothing has read yet is deferred: it becomes a
 * pending record whose destination is its output and whose source spans
 * its two operands, so every rule of the effect table holds for it as for a
 * deferred transpose (its output read or partly overwritten, its operands
 * overwritten or freed, unknown work, captures, a destroyed handle: it runs
 * first; its output wholly overwritten or freed: it never runs). A GEMM
 * reading its output makes it run (never folded onto). When a transpose
 * producer's source is exactly that output and its destination is not
 * anything the GEMM reads, the GEMM is issued swapped, writing the
 * transposed result straight into the transpose's destination, and the
 * transpose never runs; the record stays pending for its own output.
 * Where the destination lies on an operand (PyTorch's caching allocator
 * gave a freed operand's bytes to the copy's output: autograd's weight
 * gradient lands where the GEMM's grad_output was), that operand is first
 * copied aside and the GEMM reads the copy from then on, when the copy
 * moves fewer bytes than the transpose would.
 *
 * Exactness: C^T(j,i) = sum_k B^T(j,k) A^T(k,i) are the products of C(i,j)
 * (multiplication commutes exactly) in the same k order only if the library
 * sums them so whatever the op flags; the stand-in's reference GEMM does,
 * cuBLAS does not promise it (another kernel, tile or split-k may be picked
 * for T than for N): the same assumption input folding makes. Verify mode
 * checks each output fold against the GEMM as called and the transpose
 * (verify() below). Off under TRANSFOLD_OUTPUT_FOLD=0. */
#include "engine/internal.h"
#include "algebra/verify.h"

static tf_range hull(tf_range a, tf_range b)
{
    return (tf_range){ a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
}

static bool on_device(const tf_alloc_entry *a)
{
    return a && (a->kind == TF_MEM_DEVICE || a->kind == TF_MEM_POOL);
}

static tf_range span_of(const tf_alloc_entry *a)
{
    return (tf_range){ a->base, a->base + a->size };
}

static bool deferrable(const tf_engine *e, const tf_gemm *g)
{
    if (!e->cfg.output_fold || (e->cfg.verify && !e->cfg.verify_output_fold) || e->cfg.mode != TF_MODE_FOLD ||
        g->nin != 2 ||
        g->acc.nwrites != 1 || g->acc.nreads != 0 || g->acc.unknown || g->complex_type)
        return false;
    const tf_view *c = &g->acc.writes[0];
    return tf_view_valid(c) && tf_view_valid(&g->in[0].v) && tf_view_valid(&g->in[1].v) &&
           !(e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, g->acc.stream));
}

/* The workspace lies in device memory we saw made, apart from C. */
static bool ws_ok(const tf_engine *e, tf_range ws, tf_range fc)
{
    return ws.lo == ws.hi || (on_device(alloc_find(e, ws)) && !tf_range_overlaps(ws, fc));
}

bool tf_gemm_defer(tf_engine *e, const tf_gemm *g, uint64_t handle, tf_range ws, const tf_replay *replay,
                   const tf_gemm_replay_ops *ops)
{
    if (!deferrable(e, g) || !replay->run || !ops || !ops->run_transposed)
        return false;
    const tf_view *c = &g->acc.writes[0];
    tf_range fa = tf_view_footprint(&g->in[0].v), fb = tf_view_footprint(&g->in[1].v), fc = tf_view_footprint(c);
    tf_range src = hull(fa, fb);
    if (ws.lo != ws.hi)
        src = hull(src, ws);
    const tf_alloc_entry *aa = alloc_find(e, fa), *ab = alloc_find(e, fb), *ac = alloc_find(e, fc);
    /* The span may take in C or other buffers lying between A, B and the
     * workspace: writes there are told apart (gemm_touches). */
    if (tf_range_overlaps(fa, fc) || tf_range_overlaps(fb, fc) || !on_device(aa) || !on_device(ab) ||
        !on_device(ac) || !ws_ok(e, ws, fc))
        return false;
    tf_transpose_desc d = {
        .producer = g->acc.api, .name = g->acc.api, .dtype = g->dtype ? g->dtype : "?",
        .src = { .addr = src.lo, .elem = 1, .rows = (int64_t)(src.hi - src.lo), .cols = 1,
                 .ld = (int64_t)(src.hi - src.lo), .batch = 1, .stride = (int64_t)(src.hi - src.lo) },
        .dst = *c, .alpha = { 1.0, 0.0, true }, .stream = g->acc.stream, .handle = handle,
    };
    const tf_range fp[2] = { src, fc }, alloc[2] = { hull(span_of(aa), span_of(ab)), span_of(ac) };
    tf_record *p = rec_create(e, &d, replay, fp, alloc);
    if (!p)
        return false;
    p->gemm = true;
    p->gemm_in[0] = fa;
    p->gemm_in[1] = fb;
    p->gemm_in[2] = ws;
    p->gemm_k = g->k;
    p->run_transposed = ops->run_transposed;
    p->snapshot = ops->snapshot;
    bound_grow(e, fp);
    e->n.gemms_deferred++;
    log_gemm_deferred(e, p, g);
    return true;
}

static bool same_view(const tf_view *a, const tf_view *b)
{
    return a->addr == b->addr && a->elem == b->elem && a->rows == b->rows && a->cols == b->cols && a->ld == b->ld &&
           a->batch == b->batch && (a->batch == 1 || a->stride == b->stride);
}

/* Which of p's operands (bit 0: A, bit 1: B) the destination fp lies on
 * and must be copied aside first; -1 when it cannot be: the destination
 * meets the workspace or the GEMM's output, there is no copy to make, or
 * the copies would move more bytes than the transpose they replace. */
static int operands_to_copy(const tf_record *p, tf_range fp)
{
    if (tf_range_overlaps(fp, p->gemm_in[2]) || tf_range_overlaps(fp, p->dst_fp))
        return -1;
    int mask = 0;
    uint64_t bytes = 0;
    for (int i = 0; i < 2; i++)
        if (tf_range_overlaps(fp, p->gemm_in[i])) {
            mask |= 1 << i;
            bytes += p->gemm_in[i].hi - p->gemm_in[i].lo;
        }
    if (mask && (!p->snapshot || bytes > fp.hi - fp.lo))
        return -1;
    return mask;
}

/* The pending GEMM whose whole output is d's source, when writing the
 * transpose in its place is what d does (*copy: operands_to_copy). */
static tf_record *gemm_for(tf_engine *e, const tf_transpose_desc *d, const tf_range fp[2], int *copy)
{
    tf_icursor at = ITREE_START;
    tf_record *p = bound_may_overlap(e->dst_bound, fp[0]) ? rec_next_dst(e, fp[0], &at) : NULL;
    if (!p || !p->gemm || !same_view(&p->d.dst, &d->src) || !p->run_transposed)
        return NULL;
    bool one = d->alpha.host && d->alpha.re == 1.0 && d->alpha.im == 0.0;
    bool shape = d->dst.elem == d->src.elem && d->dst.rows == d->src.cols && d->dst.cols == d->src.rows &&
                 d->dst.batch == d->src.batch && tf_view_valid(&d->dst);
    *copy = operands_to_copy(p, fp[1]);
    const tf_alloc_entry *a = alloc_find(e, fp[1]);
    if (!one || (d->conj && d->complex_type) || !shape || *copy < 0 || !on_device(a) || d->stream != p->d.stream)
        return NULL;
    if (e->cfg.sync.capturing && e->cfg.sync.capturing(e->cfg.sync.ctx, d->stream))
        return NULL;
    return p;
}

/* The operands in `mask` copied aside on the GEMM's stream; the record
 * reads the copies from then on (they are the replay's: nothing of the
 * program's writes or frees them). Bytes copied, or -1. */
static long long copy_operands(tf_record *p, int mask)
{
    long long bytes = 0;
    for (int i = 0; i < 2; i++) {
        if (!(mask & 1 << i))
            continue;
        tf_range from = p->gemm_in[i];
        uint64_t to = 0;
        if (p->snapshot(p->replay.arg, i, from, p->d.stream, &to))
            return -1;
        p->gemm_in[i] = (tf_range){ to, to + (from.hi - from.lo) };
        bytes += (long long)(from.hi - from.lo);
    }
    return bytes;
}

/* Verify mode: the fold just made checked against the GEMM as called and
 * the transpose (the unfolded result kept where they differ). */
static void verify(tf_engine *e, const tf_record *p, const tf_transpose_desc *d, const tf_replay *replay)
{
    /* The transpose's element type, or the GEMM's when the producer names
     * only a size (a kernel rule's "32-bit"). A check with no operand
     * (nin 0) is an output fold's in the log. */
    const char *dtype = tf_dtype_size(d->dtype) == d->dst.elem ? d->dtype : p->d.dtype;
    tf_gemm g;
    tf_gemm_init(&g, p->d.producer, d->stream);
    g.dtype = dtype;
    g.m = d->dst.rows, g.n = d->dst.cols, g.k = p->gemm_k;
    tf_verify_result r;
    if (tf_dtype_size(dtype) == d->dst.elem && e->cfg.verify_output_fold(&p->replay, replay, d, dtype, p->gemm_k, &r))
        tf_verify_report(e, &g, &r);
    else
        tf_verify_skipped(e, &g, TF_R_verify_output_fold);
}

bool output_fold_try(tf_engine *e, const tf_transpose_desc *d, const tf_range fp[2], const tf_replay *replay)
{
    if (e->cfg.mode != TF_MODE_FOLD)
        return false;
    int copy = 0;
    tf_record *p = gemm_for(e, d, fp, &copy);
    if (!p)
        return false;
    /* A copy made stays the record's even when the fold below cannot be
     * issued: the GEMM reads the same bytes from it. */
    long long copied = copy ? copy_operands(p, copy) : 0;
    if (copied && e->nheld)
        held_release_unused(e); /* a held operand may be read from its copy now */
    if (copied < 0)
        return false;
    /* The transposed GEMM writes d's destination: what that means to other
     * records, as any write. Not to the GEMM itself: its operands and output
     * were checked apart from it above, and the span its record is indexed
     * by may take in more (so it leaves the index meanwhile). */
    tf_access w;
    tf_access_init(&w, d->producer, d->stream);
    tf_access_write(&w, d->dst);
    tf_kept covered;
    itree_remove(&e->pend_src, &p->by_src);
    effects_before(e, &w, &covered);
    itree_insert(&e->pend_src, &p->by_src);
    if (p->run_transposed(p->replay.arg, d->dst.addr, d->dst.ld, d->dst.batch > 1 ? d->dst.stride : 0, d->stream))
        return false; /* it cannot be issued so: as usual */
    if (e->cfg.verify)
        verify(e, p, d, replay);
    itree_remove(&e->pend_src, &p->by_src);
    effects_drop_kept(e, &w, &covered);
    itree_insert(&e->pend_src, &p->by_src);
    e->n.output_folds++;
    e->n.launches_saved++;
    e->n.bytes_saved += 2 * (tf_view_bytes(&d->dst) - (uint64_t)copied); /* the copy moved some */
    log_output_fold(e, p, d, copied);
    if (replay->release)
        replay->release(replay->arg);
    return true;
}
