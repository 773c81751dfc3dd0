/* The transpose decision for C = alpha*op(A) + beta*op(B); see sum.h. */
#include <stddef.h>

#include "sum.h"

static bool reads(const tf_sum *s, int i)
{
    return s->term[i].given && !(s->host && s->term[i].zero);
}

/* Checked in this order, so a call refused for several reasons always
 * names the same one. */
static const char *refusal(const tf_sum *s, const tf_sum_plan *p)
{
    if (!s->host)
        return "device pointer mode: alpha and beta unknown";
    if (p->read[1 - p->src])
        return "both operands contribute (alpha and beta nonzero)";
    if (s->term[p->src].converts)
        return "type conversion: source and destination types differ";
    if (!s->stream_usable)
        return "the handle's stream is not usable: the call reports that itself";
    return NULL;
}

tf_sum_plan tf_sum_classify(const tf_sum *s)
{
    tf_sum_plan p = { .read = { reads(s, TF_SUM_A), reads(s, TF_SUM_B) } };
    bool ta = s->term[TF_SUM_A].given && s->term[TF_SUM_A].transposes;
    bool tb = s->term[TF_SUM_B].given && s->term[TF_SUM_B].transposes;
    p.transpose = ta || tb;
    p.src = ta && (!p.read[TF_SUM_B] || !(tb && !p.read[TF_SUM_A])) ? TF_SUM_A : TF_SUM_B;
    if (p.transpose)
        p.refuse = refusal(s, &p);
    return p;
}
