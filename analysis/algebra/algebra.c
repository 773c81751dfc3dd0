/* The fold algebra: when an operand that reads a transpose's destination can
 * read its source instead, and with which op, address, ld and scale. */
#include <math.h>

#include "algebra/algebra.h"

/* Only 1 is exact for all data: with -1 a zero result's sign flips
 * (x + -x is +0 either way, but -1 * +0 is -0), and 2^k can overflow a
 * product or push it into subnormals where the unfolded call did not. The
 * opt-in pow2 setting also folds +-2^k, which change no bit of a normal
 * product's significand. */
bool tf_scale_foldable(tf_scale s, tf_scales scales)
{
    if (!s.host || s.im != 0.0 || !isfinite(s.re) || s.re == 0.0)
        return false;
    if (scales == TF_SCALES_EXACT)
        return s.re == 1.0;
    int exp;
    double mant = frexp(fabs(s.re), &exp);
    return mant == 0.5;
}

/* X = op_P(Y)^T where Y is the source block; the GEMM wants op_x(X):
 *   plain P:  N -> T,  T -> N,  C -> conj(Y): no op (real: N)
 *   conj P:   N -> C,  T -> conj(Y): no op (real: N... handled as plain), C -> N */
bool tf_fold_op(tf_op x, bool conj, bool complex_type, tf_op *out)
{
    if (!complex_type) {
        *out = x == TF_OP_N ? TF_OP_T : TF_OP_N;
        return true;
    }
    if (!conj) {
        if (x == TF_OP_C)
            return false;
        *out = x == TF_OP_N ? TF_OP_T : TF_OP_N;
        return true;
    }
    if (x == TF_OP_T)
        return false;
    *out = x == TF_OP_N ? TF_OP_C : TF_OP_N;
    return true;
}

/* The consumer's type decides: a kernel transpose does not know whether its
 * elements are complex, the GEMM reading them does. */
bool fold_op_for(const tf_transpose_desc *p, const tf_gemm *g, tf_op x, tf_op *out)
{
    return tf_fold_op(x, p->conj && p->complex_type, g->complex_type, out);
}

static bool refuse(fold_verdict *v, tf_why why)
{
    v->why = why;
    return false;
}

/* The operand's batches step through each batch of the transpose in `per`
 * sub-matrices stacked in it (q @ k.transpose(-2, -1) with k's heads split
 * from one fused projection: the transpose's batch is the sequence's,
 * the GEMM's batch and head). Folded as one call per batch of the
 * transpose, each over sub-matrices stacked in one matrix (the transpose's
 * batch b0 taken alone below); only where the call can be split, and
 * writes its output whole (beta 0: a call rejected half way is reissued
 * whole). */
static bool fold_groups(const tf_transpose_desc *p, const tf_operand *xo, const tf_gemm *g, fold_verdict *v)
{
    const tf_view *x = &xo->v;
    int64_t per = x->stride > 0 && p->dst.stride % x->stride == 0 ? p->dst.stride / x->stride : 0;
    if (!g->splittable || g->acc.nreads || per < 2 || x->batch % per)
        return refuse(v, TF_WHY(batch_stride, .num = {x->stride, p->dst.stride}));
    uint64_t span = p->dst.elem * (uint64_t)p->dst.stride, off = x->addr - p->dst.addr;
    int64_t groups = x->batch / per, b0 = x->addr >= p->dst.addr ? (int64_t)(off / span) : p->dst.batch;
    if (b0 + groups > p->dst.batch)
        return refuse(v, TF_WHY(subview));
    tf_transpose_desc one = *p;
    one.dst.batch = one.src.batch = 1;
    one.dst.addr += (uint64_t)b0 * span;
    one.src.addr += (uint64_t)b0 * p->src.elem * (uint64_t)p->src.stride;
    tf_operand x0 = *xo;
    x0.v.batch = per;
    if (!fold_operand(&one, &x0, g, v))
        return false;
    v->rw.groups = groups;
    v->rw.group_stride = p->src.stride;
    return true;
}

bool fold_operand(const tf_transpose_desc *p, const tf_operand *xo, const tf_gemm *g, fold_verdict *v)
{
    tf_offset at;
    const tf_view *x = &xo->v;
    tf_view one;
    /* Batch stride 0 broadcasts one matrix to every batch: it is one matrix
     * (copied only then: this runs for every operand over a record). */
    if (x->stride == 0 && x->batch != 1) {
        one = *x;
        one.batch = 1;
        x = &one;
    }
    v->why.key = TF_R_NONE; /* the rest of v->why is only read after a refusal */
    if (xo->refuse)
        return refuse(v, TF_WHY_KEY(xo->refuse));
    if (p->stream != g->acc.stream)
        return refuse(v, TF_WHY(stream));
    if (x->elem != p->dst.elem)
        return refuse(v, TF_WHY(elem_size, .num = {x->elem, p->dst.elem}));
    if (x->ld != p->dst.ld)
        return refuse(v, TF_WHY(ld, .num = {x->ld, p->dst.ld}));
    if (x->batch > 1 && p->dst.batch > 1 && x->stride != p->dst.stride)
        return fold_groups(p, xo, g, v);
    if (!tf_view_subview(&p->dst, x, &at))
        return refuse(v, TF_WHY(subview));
    if (p->conj && p->complex_type && !g->complex_type)
        return refuse(v, TF_WHY(conj_real_gemm));
    if (!fold_op_for(p, g, xo->op, &v->rw.op))
        return refuse(v, TF_WHY(conj_no_op));
    bool scaled = !(p->alpha.re == 1.0 && p->alpha.im == 0.0);
    if (scaled && !g->alpha_host)
        return refuse(v, TF_WHY(scale_alpha_device));
    v->rw.folded = true;
    v->rw.groups = 0;
    v->rw.addr = p->src.addr + p->src.elem * (uint64_t)(at.j0 + at.i0 * p->src.ld + at.b0 * p->src.stride);
#ifdef TF_TEST_WRONG_FOLD
    v->rw.addr += p->src.elem; /* test-only: a deliberately wrong fold, for verify mode's own test */
#endif
    v->rw.ld = p->src.ld;
    /* Batches stacked in one matrix step (di, dj) there, (dj, di) in the source. */
    int64_t stacked = at.dj + at.di * p->src.ld;
    v->rw.stride = xo->v.stride == 0 ? 0 : p->dst.batch == 1 ? stacked : p->src.stride;
    v->alpha = p->alpha.re;
    return true;
}
