/* Pointer-argument ATen kernels by their demangled names (kernel_ptr.h). */
#include <stdio.h>
#include <string.h>

#include "aten/kernel_ptr.h"

static bool is_false(span s) { return s.n == 5 && aten_starts(s, "false"); }

static uint32_t type_of(span s, const char **short_name)
{
    return aten_type_size(s.p, s.n, short_name);
}

/* (anonymous namespace)::softmax_warp_{forward,backward}<in_t, out_t,
 * acc_t, log2_elements, is_log_softmax, is_masked, 32>: not masked. */
static bool parse_softmax(span s, aten_kernel *k)
{
    span args, rest, a[7];
    bool fwd = aten_template_args(s, "(anonymous namespace)::softmax_warp_forward", &args, &rest);
    if (!fwd && !aten_template_args(s, "(anonymous namespace)::softmax_warp_backward", &args, &rest))
        return false;
    int log2 = -1;
    const char *sn = NULL;
    uint32_t in, out;
    if (aten_split(args, a, 7) != 7 || !is_false(a[5]) || sscanf(a[3].p, "%d", &log2) != 1 || log2 < 0 || log2 > 11)
        return false;
    in = type_of(a[0], NULL), out = type_of(a[1], &sn);
    if (!in || !out)
        return false;
    k->kind = fwd ? ATEN_PTR_SOFTMAX_FWD : ATEN_PTR_SOFTMAX_BWD;
    k->nargs = fwd ? 2 : 3;
    k->elem[0] = out;
    k->elem[1] = k->elem[2] = in;
    k->log2_elements = log2;
    k->dtype = sn;
    snprintf(k->op, sizeof k->op, "%s", fwd ? "softmax_warp_forward" : "softmax_warp_backward");
    return true;
}

/* at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d
 * <scalar_t, acc_t, index_t> and ..._backward_..._2d<scalar_t, index_t>. */
static bool parse_nll(span s, aten_kernel *k)
{
    span args, rest, a[3];
    bool fwd = aten_template_args(s, "at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d",
                                  &args, &rest);
    if (!fwd && !aten_template_args(s, "at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d",
                                    &args, &rest))
        return false;
    if (aten_split(args, a, 3) != (fwd ? 3 : 2))
        return false;
    const char *sn = NULL;
    uint32_t t = type_of(a[0], &sn), index = type_of(a[fwd ? 2 : 1], NULL);
    if (!t || !index)
        return false;
    k->kind = fwd ? ATEN_PTR_NLL_FWD : ATEN_PTR_NLL_BWD;
    k->nargs = 5;
    k->nout = fwd ? 2 : 1;
    for (int i = 0; i < 5; i++)
        k->elem[i] = t;
    k->elem[fwd ? 3 : 2] = index;
    k->dtype = sn;
    snprintf(k->op, sizeof k->op, "%s", fwd ? "nll_loss_forward" : "nll_loss_backward");
    return true;
}

/* at::native::(anonymous namespace)::vectorized_layer_norm_kernel<T,
 * T_ACC, rms_norm>: layer norm, not rms norm. */
static bool parse_layer_norm(span s, aten_kernel *k)
{
    span args, rest, a[3];
    if (!aten_template_args(s, "at::native::(anonymous namespace)::vectorized_layer_norm_kernel", &args, &rest) ||
        aten_split(args, a, 3) != 3 || !is_false(a[2]))
        return false;
    const char *sn = NULL;
    uint32_t t = type_of(a[0], &sn), acc = type_of(a[1], NULL);
    if (!t || (acc != 4 && acc != 8))
        return false;
    k->kind = ATEN_PTR_LAYER_NORM;
    k->nargs = 6;
    k->nout = 3;
    k->elem[0] = k->elem[3] = k->elem[4] = k->elem[5] = t;
    k->elem[1] = k->elem[2] = acc;
    k->arg_size = acc;
    k->dtype = sn;
    snprintf(k->op, sizeof k->op, "layer_norm");
    return true;
}

bool aten_parse_ptr_kernel(span s, aten_kernel *k)
{
    if (!parse_softmax(s, k) && !parse_nll(s, k) && !parse_layer_norm(s, k))
        return false;
    k->family = ATEN_FAM_POINTERS;
    for (int i = 0; i < k->nargs; i++)
        k->exact[i] = true;
    return true;
}
