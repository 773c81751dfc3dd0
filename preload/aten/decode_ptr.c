/* Pointer-argument ATen launches as byte ranges (kernel_ptr.h). */
#include <string.h>

#include "aten/abi_layer_norm.h"
#include "aten/abi_nll_loss.h"
#include "aten/abi_softmax.h"
#include "aten/kernel_ptr.h"

bool aten_ptr_params(const aten_kernel *k, size_t *sizes, int *count)
{
    static const size_t smf[] = { ATEN_SMW_FWD_SIZES }, smb[] = { ATEN_SMW_BWD_SIZES };
    static const size_t nf[] = { ATEN_NLL_FWD_SIZES }, nb[] = { ATEN_NLL_BWD_SIZES };
    const size_t ln[] = { ATEN_LN_VEC_SIZES((size_t)k->arg_size) };
    const size_t *want;
    int n;
    switch (k->kind) {
    case ATEN_PTR_SOFTMAX_FWD: want = smf, n = ATEN_SMW_FWD_NPARAMS; break;
    case ATEN_PTR_SOFTMAX_BWD: want = smb, n = ATEN_SMW_BWD_NPARAMS; break;
    case ATEN_PTR_NLL_FWD: want = nf, n = ATEN_NLL_FWD_NPARAMS; break;
    case ATEN_PTR_NLL_BWD: want = nb, n = ATEN_NLL_BWD_NPARAMS; break;
    case ATEN_PTR_LAYER_NORM: want = ln, n = ATEN_LN_VEC_NPARAMS; break;
    default: return false;
    }
    if (n > ATEN_MAX_PARAMS) /* callers size their lists so (an overrun crashed once) */
        return false;
    memcpy(sizes, want, sizeof *sizes * (size_t)n);
    *count = n;
    return true;
}

static uint64_t ptr(void *const *p, int i)
{
    uint64_t v;
    memcpy(&v, p[i], 8);
    return v;
}

static int64_t i32(void *const *p, int i)
{
    int32_t v;
    memcpy(&v, p[i], 4);
    return v;
}

static int64_t i64(void *const *p, int i)
{
    int64_t v;
    memcpy(&v, p[i], 8);
    return v;
}

/* Operand op: count contiguous elements at addr, in its own dimension
 * (the other operands' strides 0 along it). */
static bool span_operand(aten_iter *it, int op, uint64_t addr, int64_t count)
{
    if (count < 1 || count > 0x7fffffff || !addr)
        return false;
    it->data[op] = addr;
    it->size[op] = (uint32_t)count;
    for (int o = 0; o < it->nargs; o++)
        it->stride[op][o] = o == op ? it->elem[op] : 0;
    return true;
}

/* batch rows of `elements`, row r at r * stride elements, for every
 * operand: two dimensions, as TensorIterator would have them. */
static bool rows(aten_iter *it, void *const *p, int batch_i, int stride_i, int elements_i, int mask_i,
                 const aten_kernel *k)
{
    int64_t batch = i32(p, batch_i), stride = i32(p, stride_i), elements = i32(p, elements_i);
    if (ptr(p, mask_i) || batch < 1 || elements < 1 || elements > (1 << k->log2_elements) || stride < elements ||
        batch * elements > 0x7fffffff)
        return false;
    it->dims = 2;
    it->n = batch * elements;
    it->size[0] = (uint32_t)elements;
    it->size[1] = (uint32_t)batch;
    for (int a = 0; a < it->nargs; a++) {
        uint64_t s = (uint64_t)stride * it->elem[a];
        if (s > 0xffffffffull)
            return false;
        it->stride[0][a] = it->elem[a];
        it->stride[1][a] = (uint32_t)s;
    }
    return true;
}

static bool softmax(const aten_kernel *k, void *const *p, aten_iter *it)
{
    if (k->kind == ATEN_PTR_SOFTMAX_FWD) {
        it->data[0] = ptr(p, ATEN_SMW_FWD_DST), it->data[1] = ptr(p, ATEN_SMW_FWD_SRC);
        return rows(it, p, ATEN_SMW_FWD_BATCH, ATEN_SMW_FWD_STRIDE, ATEN_SMW_FWD_ELEMENTS, ATEN_SMW_FWD_MASK, k);
    }
    it->data[0] = ptr(p, ATEN_SMW_BWD_GRAD_INPUT), it->data[1] = ptr(p, ATEN_SMW_BWD_GRAD);
    it->data[2] = ptr(p, ATEN_SMW_BWD_OUTPUT);
    return rows(it, p, ATEN_SMW_BWD_BATCH, ATEN_SMW_BWD_STRIDE, ATEN_SMW_BWD_ELEMENTS, ATEN_SMW_BWD_MASK, k);
}

/* Row i's picked element is input[i * ndim + target[i]], target below
 * n_classes (others are skipped or assert): (nframe - 1) * ndim +
 * n_classes elements bound it. Weights: n_classes, or none. */
static bool nll(const aten_kernel *k, void *const *p, aten_iter *it)
{
    bool fwd = k->kind == ATEN_PTR_NLL_FWD;
    int64_t nframe = fwd ? i64(p, ATEN_NLL_FWD_NFRAME) : i32(p, ATEN_NLL_BWD_NFRAME);
    int64_t ndim = fwd ? i64(p, ATEN_NLL_FWD_NDIM) : i32(p, ATEN_NLL_BWD_NDIM);
    int64_t ncls = i64(p, fwd ? ATEN_NLL_FWD_NCLASSES : ATEN_NLL_BWD_NCLASSES);
    if (nframe < 1 || ndim < 1 || ncls < 1 || ncls > ndim || nframe > 0x7fffffff / ndim)
        return false;
    int64_t picked = (nframe - 1) * ndim + ncls;
    uint64_t in = ptr(p, fwd ? ATEN_NLL_FWD_INPUT : ATEN_NLL_BWD_GRAD_INPUT);
    uint64_t w = ptr(p, fwd ? ATEN_NLL_FWD_WEIGHTS : ATEN_NLL_BWD_WEIGHTS);
    int tw = fwd ? 1 : 4, target = fwd ? 3 : 2, weights = fwd ? 4 : 3, input = fwd ? 2 : 0, scalar = fwd ? 0 : 1;
    it->dims = 5;
    return span_operand(it, input, in, picked) &&
           span_operand(it, tw, ptr(p, fwd ? ATEN_NLL_FWD_TOTAL_WEIGHT : ATEN_NLL_BWD_TOTAL_WEIGHT), 1) &&
           span_operand(it, scalar, ptr(p, fwd ? ATEN_NLL_FWD_OUTPUT : ATEN_NLL_BWD_GRAD_OUTPUT), 1) &&
           span_operand(it, target, ptr(p, fwd ? ATEN_NLL_FWD_TARGET : ATEN_NLL_BWD_TARGET), nframe) &&
           (w ? span_operand(it, weights, w, ncls) : span_operand(it, weights, in, picked)); /* both scalar_t */
}

/* One block a row: M = the grid's blocks, N the row; mean and rstd M
 * values of T_ACC. */
static bool layer_norm(const aten_kernel *k, void *const *p, uint64_t blocks, aten_iter *it)
{
    int64_t n = i32(p, ATEN_LN_VEC_N), m = (int64_t)blocks;
    if (n < 1 || m < 1 || m > 0x7fffffff / n)
        return false;
    uint64_t x = ptr(p, ATEN_LN_VEC_X), g = ptr(p, ATEN_LN_VEC_GAMMA), b = ptr(p, ATEN_LN_VEC_BETA);
    (void)k;
    it->dims = 6;
    return span_operand(it, 0, ptr(p, ATEN_LN_VEC_Y), m * n) && span_operand(it, 1, ptr(p, ATEN_LN_VEC_MEAN), m) &&
           span_operand(it, 2, ptr(p, ATEN_LN_VEC_RSTD), m) && span_operand(it, 3, x, m * n) &&
           span_operand(it, 4, g ? g : x, g ? n : m * n) && span_operand(it, 5, b ? b : x, b ? n : m * n);
}

bool aten_decode_ptr(const aten_kernel *k, void *const *p, uint64_t blocks, aten_iter *it)
{
    switch (k->kind) {
    case ATEN_PTR_SOFTMAX_FWD:
    case ATEN_PTR_SOFTMAX_BWD: return softmax(k, p, it);
    case ATEN_PTR_NLL_FWD:
    case ATEN_PTR_NLL_BWD: return nll(k, p, it);
    case ATEN_PTR_LAYER_NORM: return layer_norm(k, p, blocks, it);
    default: return false;
    }
}
