/* ATen launch parameters as byte ranges (decode.h). */
#include <string.h>

#include "aten/decode.h"

bool aten_expected_params(const aten_kernel *k, size_t *sizes, int *count)
{
    switch (k->family) {
    case ATEN_FAM_LEGACY: /* (int N, closure): an empty lambda's closure is fixed */
        sizes[0] = sizeof(int32_t);
        sizes[1] = k->copy ? ATEN_EW_NOCAST_BYTES(k->nargs, 1, 1) : 0;
        *count = 2;
        return true;
    case ATEN_FAM_VECTORIZED: /* (int N, functor, std::array<char*, K>) */
        sizes[0] = sizeof(int32_t);
        sizes[1] = 0;
        sizes[2] = 8 * (size_t)k->nargs;
        *count = 3;
        return true;
    default:
        return false;
    }
}

/* Whether the parameters have the family's sizes (0: any size). */
static bool sizes_ok(const aten_kernel *k, const size_t *sizes, int nparams)
{
    size_t want[4];
    int n = 0;
    if (!aten_expected_params(k, want, &n) || nparams != n)
        return false;
    for (int i = 0; i < n; i++)
        if (want[i] ? sizes[i] != want[i] : sizes[i] == 0)
            return false;
    return true;
}

/* IntDivider<uint32_t>'s constructor, recomputed. */
static bool divider_ok(const aten_int_divider *d)
{
    if (d->divisor < 1 || d->divisor > 0x7fffffffu)
        return false;
    uint32_t shift = 0;
    while (shift < 32 && (1ull << shift) < d->divisor)
        shift++;
    uint64_t magic = ((1ull << 32) * ((1ull << shift) - d->divisor)) / d->divisor + 1;
    return magic <= 0xffffffffull && d->shift == shift && d->m1 == (uint32_t)magic;
}

static uint64_t load_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The OffsetCalculator<K> at the front of a nocast closure, then data. */
static bool decode_legacy(const aten_kernel *k, const unsigned char *c, size_t len, aten_iter *it)
{
    int K = k->nargs;
    if (len < (size_t)ATEN_EW_NOCAST_FUNCTOR(K))
        return false;
    int32_t dims;
    memcpy(&dims, c + ATEN_OC_DIMS, sizeof dims);
    if (dims < 1 || dims > ATEN_MAX_DIMS)
        return false;
    it->dims = dims;
    uint64_t n = 1;
    for (int d = 0; d < dims; d++) {
        aten_int_divider div;
        memcpy(&div, c + ATEN_OC_SIZES + 12 * (size_t)d, sizeof div);
        if (!divider_ok(&div))
            return false;
        it->size[d] = div.divisor;
        n *= div.divisor;
        if (n > 0x7fffffffu)
            return false;
        for (int a = 0; a < K; a++)
            memcpy(&it->stride[d][a], c + ATEN_OC_STRIDES + 4 * ((size_t)d * K + a), 4);
    }
    if ((int64_t)n != it->n)
        return false;
    for (int a = 0; a < K; a++)
        it->data[a] = load_u64(c + ATEN_EW_NOCAST_DATA(K) + 8 * (size_t)a);
    return true;
}

/* One dimension of N contiguous elements per operand. */
static bool decode_vectorized(const aten_kernel *k, const unsigned char *data, aten_iter *it)
{
    it->dims = 1;
    it->size[0] = (uint32_t)it->n;
    for (int a = 0; a < k->nargs; a++) {
        it->stride[0][a] = k->elem[a];
        it->data[a] = load_u64(data + 8 * (size_t)a);
    }
    return true;
}

/* The largest byte offset the kernel computes for operand a, below 2^32
 * (it computes them in 32 bits: a larger one would wrap). */
static bool max_offset(const aten_iter *it, int a, uint64_t *out)
{
    uint64_t m = 0;
    for (int d = 0; d < it->dims; d++)
        m += (uint64_t)(it->size[d] - 1) * it->stride[d][a];
    *out = m;
    return m <= 0xffffffffull;
}

bool aten_decode(const aten_kernel *k, void *const *params, const size_t *sizes, int nparams, aten_iter *it)
{
    memset(it, 0, sizeof *it);
    if (k->family == ATEN_FAM_NONE || k->nargs < 1 || k->nargs > ATEN_MAX_ARGS || !sizes_ok(k, sizes, nparams))
        return false;
    int32_t n;
    memcpy(&n, params[0], sizeof n);
    if (n < 1)
        return false;
    it->n = n;
    it->nargs = k->nargs;
    bool ok = k->family == ATEN_FAM_LEGACY ? decode_legacy(k, params[1], sizes[1], it)
                                           : decode_vectorized(k, params[2], it);
    uint64_t m;
    for (int a = 0; ok && a < k->nargs; a++)
        ok = max_offset(it, a, &m) && it->data[a] != 0 && it->data[a] + m + k->elem[a] > it->data[a];
    return ok;
}

bool aten_launch_complete(const aten_kernel *k, const aten_iter *it, unsigned grid, unsigned block)
{
    uint64_t per = k->family == ATEN_FAM_LEGACY ? (uint64_t)(k->vt > 0 ? k->vt : 0) : 4;
    return (uint64_t)grid * block * per >= (uint64_t)it->n;
}

tf_range aten_operand_range(const aten_kernel *k, const aten_iter *it, int a)
{
    uint64_t m = 0;
    max_offset(it, a, &m);
    return (tf_range){ it->data[a], it->data[a] + m + k->elem[a] };
}

/* Dimensions of size > 1, with those that continue the one before densely
 * for every operand in `mask`'s view merged (as TensorIterator coalesces):
 * sizes and strides of operand a. */
typedef struct dims { int n; uint64_t size[ATEN_MAX_DIMS]; uint64_t stride[ATEN_MAX_DIMS][2]; } dims;

static void kept_dims(const aten_iter *it, int a0, int a1, dims *d)
{
    d->n = 0;
    for (int i = 0; i < it->dims; i++) {
        if (it->size[i] == 1)
            continue;
        uint64_t s0 = it->stride[i][a0], s1 = it->stride[i][a1];
        int j = d->n - 1;
        if (j >= 0 && s0 == d->stride[j][0] * d->size[j] && s1 == d->stride[j][1] * d->size[j]) {
            d->size[j] *= it->size[i];
            continue;
        }
        d->size[d->n] = it->size[i];
        d->stride[d->n][0] = s0;
        d->stride[d->n][1] = s1;
        d->n++;
    }
}

bool aten_output_view(const aten_kernel *k, const aten_iter *it, tf_view *out)
{
    uint64_t e = k->elem[0];
    if (!k->exact[0] || e == 0)
        return false;
    dims d;
    kept_dims(it, 0, 0, &d);
    if (d.n == 0) {
        *out = tf_view_dense(it->data[0], e);
        return true;
    }
    if (d.stride[0][0] != e || d.n > 3)
        return false;
    for (int i = 1; i < d.n; i++)
        if (d.stride[i][0] % e)
            return false;
    *out = (tf_view){ .addr = it->data[0], .elem = (uint32_t)e, .rows = (int64_t)d.size[0], .cols = 1,
                      .ld = (int64_t)d.size[0], .batch = 1, .stride = 0 };
    if (d.n >= 2)
        out->cols = (int64_t)d.size[1], out->ld = (int64_t)(d.stride[1][0] / e);
    if (d.n == 3)
        out->batch = (int64_t)d.size[2], out->stride = (int64_t)(d.stride[2][0] / e);
    /* Batches that overlap (or columns inside a row) are no view's
     * elements: only a may-write. */
    if (d.n == 3 && (uint64_t)out->stride < (uint64_t)out->ld * (uint64_t)out->cols)
        return false;
    return tf_view_valid(out);
}

bool aten_transpose(const aten_kernel *k, const aten_iter *it, tf_view *src, tf_view *dst)
{
    uint64_t e = k->elem[0];
    if (!k->copy || k->nargs != 2 || !k->exact[0] || !k->exact[1] || k->elem[1] != e)
        return false;
    dims d;
    kept_dims(it, 0, 1, &d);
    if (d.n < 2 || d.n > 3)
        return false;
    /* The output dense in this order; the input's fastest is the output's
     * second dimension, its first at a whole number of elements. */
    uint64_t n0 = d.size[0], n1 = d.size[1], a = d.stride[0][1];
    if (d.stride[0][0] != e || d.stride[1][0] != e * n0 || d.stride[1][1] != e || a % e || a / e < n1)
        return false;
    *dst = (tf_view){ .addr = it->data[0], .elem = (uint32_t)e, .rows = (int64_t)n0, .cols = (int64_t)n1,
                      .ld = (int64_t)n0, .batch = 1, .stride = (int64_t)(n0 * n1) };
    *src = (tf_view){ .addr = it->data[1], .elem = (uint32_t)e, .rows = (int64_t)n1, .cols = (int64_t)n0,
                      .ld = (int64_t)(a / e), .batch = 1, .stride = (int64_t)(a / e * n0) };
    if (d.n == 3) {
        uint64_t c = d.stride[2][1];
        if (d.stride[2][0] != e * n0 * n1 || c % e)
            return false;
        dst->batch = src->batch = (int64_t)d.size[2];
        src->stride = (int64_t)(c / e);
    }
    return tf_view_valid(src) && tf_view_valid(dst);
}
