/* C = alpha*op(A) + beta*op(B) as a transpose producer: cublasXgeam and
 * cublasLtMatrixTransform both compute it, and both ask this one function
 * whether a call is a transpose, of which operand, and why it cannot be
 * deferred. The hooks work out the API-specific parts (which operand lands
 * in C transposed, which scale is a known 0) and describe the producer
 * with the operand and scale chosen here. */
#ifndef TF_SUM_H
#define TF_SUM_H
#include <stdbool.h>
#include <stddef.h>

#include "reasons.h"

enum { TF_SUM_A, TF_SUM_B };

typedef struct tf_sum_term {
    bool given;       /* the operand was passed (cuBLASLt may omit B) */
    bool transposes;  /* given, and it lands in C transposed */
    bool zero;        /* its scale is 0 (meaningful only when host) */
    bool converts;    /* its element type is not C's */
} tf_sum_term;

typedef struct tf_sum {
    tf_sum_term term[2];  /* A with alpha, B with beta */
    bool host;            /* alpha and beta were readable on the host */
    bool stream_usable;   /* the call's stream can be ordered against */
} tf_sum;

typedef struct tf_sum_plan {
    bool transpose;       /* one operand lands in C transposed */
    int src;              /* that operand (TF_SUM_A or TF_SUM_B); its scale scales the transpose */
    bool read[2];         /* operand read: given and its scale not a known 0 */
    tf_reason refuse;     /* why a transpose cannot be deferred, or TF_R_NONE */
} tf_sum_plan;

static inline bool tf_sum_reads(const tf_sum *s, int i)
{
    return s->term[i].given && !(s->host && s->term[i].zero);
}

/* Checked in this order, so a call refused for several reasons always
 * names the same one. */
static inline tf_reason tf_sum_refusal(const tf_sum *s, const tf_sum_plan *p)
{
    if (!s->host)
        return TF_R_device_pointer_mode;
    if (p->read[1 - p->src])
        return TF_R_both_operands;
    if (s->term[p->src].converts)
        return TF_R_type_conversion;
    if (!s->stream_usable)
        return TF_R_stream_unusable;
    return TF_R_NONE;
}

/* The source is A when A transposes, unless B transposes too and only B
 * contributes. In place (C overlapping the source) is left to
 * tf_transpose_begin, which sees the views. Inline: the hooks ask on every
 * transpose-shaped call. */
static inline tf_sum_plan tf_sum_classify(const tf_sum *s)
{
    tf_sum_plan p = { .read = { tf_sum_reads(s, TF_SUM_A), tf_sum_reads(s, TF_SUM_B) } };
    bool ta = s->term[TF_SUM_A].given && s->term[TF_SUM_A].transposes;
    bool tb = s->term[TF_SUM_B].given && s->term[TF_SUM_B].transposes;
    p.transpose = ta || tb;
    p.src = ta && (!p.read[TF_SUM_B] || !(tb && !p.read[TF_SUM_A])) ? TF_SUM_A : TF_SUM_B;
    if (p.transpose)
        p.refuse = tf_sum_refusal(s, &p);
    return p;
}

#endif
