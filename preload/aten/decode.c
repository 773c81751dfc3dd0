/* ATen launch parameters as byte ranges (decode.h). */
#include <string.h>

#include "aten/abi_random.h"
#include "aten/abi_index.h"
#include "aten/abi_multi_tensor.h"
#include "aten/abi_reduce.h"
#include "aten/decode.h"
#include "aten/tiled.h"
#include "aten/kernel_ptr.h"

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
    case ATEN_FAM_UNROLLED: { /* (int N, functor, data, inp_calc, out_calc, loader, storer) */
        int in = k->nargs - 1;
        sizes[0] = sizeof(int32_t);
        sizes[1] = 0;
        sizes[2] = 8 * (size_t)k->nargs;
        sizes[3] = k->trivial ? 1 : ATEN_OC_BYTES(in);
        sizes[4] = k->trivial ? 1 : ATEN_OC_BYTES(1);
        sizes[5] = k->cast ? ATEN_LOAD_WITH_CAST_BYTES(in > 0 ? in : 1) : 1;
        sizes[6] = k->cast ? ATEN_STORE_WITH_CAST_BYTES : 1;
        *count = 7;
        return true;
    }
    case ATEN_FAM_DROPOUT: /* (TensorInfo a, b, c, uint32 n, acc p, PhiloxCudaState) */
        sizes[ATEN_DROPOUT_P_A] = sizes[ATEN_DROPOUT_P_B] = sizes[ATEN_DROPOUT_P_C] = ATEN_TI_BYTES;
        sizes[ATEN_DROPOUT_P_N] = sizeof(uint32_t);
        sizes[ATEN_DROPOUT_P_P] = k->arg_size;
        sizes[ATEN_DROPOUT_P_PHILOX] = ATEN_PHILOX_BYTES;
        *count = ATEN_DROPOUT_NPARAMS;
        return true;
    case ATEN_FAM_MULTI_TENSOR: /* (TensorListMetadata<d>, functor, op[, opmath_t scalar]) */
        sizes[0] = k->list_scalar ? ATEN_SL_BYTES(k->depth, k->list_scalar) : ATEN_TL_BYTES(k->depth);
        sizes[1] = sizes[2] = 1;
        sizes[3] = k->arg_size;
        *count = k->arg_size ? 4 : 3;
        return true;
    case ATEN_FAM_REDUCE: /* (ReduceOp op) */
        sizes[0] = ATEN_RO_BYTES(ATEN_RO_CONFIG(k->ops_size, k->arg_size, k->arg_align));
        *count = 1;
        return true;
    case ATEN_FAM_TILED: /* (src, dst, int64 width, height, src_pitch, dst_pitch) */
        for (int i = 0; i < ATEN_TILED_NPARAMS; i++)
            sizes[i] = ATEN_TILED_PARAM_BYTES;
        *count = ATEN_TILED_NPARAMS;
        return true;
    case ATEN_FAM_CAT: /* (output, CatArrInputTensorMetadata, TensorSizeStride os, int concatDim, uint32 last) */
        sizes[ATEN_CAT_P_OUTPUT] = 8;
        sizes[ATEN_CAT_P_INPUTS] = ATEN_CAT_META_BYTES_B(k->cat.batch, k->cat.stride_size);
        sizes[ATEN_CAT_P_OS] = ATEN_CAT_SIZE_STRIDE_BYTES;
        sizes[ATEN_CAT_P_CONCAT_DIM] = sizes[ATEN_CAT_P_DIM_STRIDE] = 4;
        *count = ATEN_CAT_NPARAMS;
        return true;
    case ATEN_FAM_RANDOM: /* (int64 numel, PhiloxCudaState, dist, transform closure) */
        sizes[ATEN_RNG_P_NUMEL] = sizeof(int64_t);
        sizes[ATEN_RNG_P_PHILOX] = ATEN_PHILOX_BYTES;
        sizes[ATEN_RNG_P_DIST] = ATEN_RNG_DIST_BYTES;
        sizes[ATEN_RNG_P_TRANSFORM] = 0;
        *count = ATEN_RNG_NPARAMS;
        return true;
    case ATEN_FAM_POINTERS:
        return aten_ptr_params(k, sizes, count);
    default:
        return false;
    }
}

bool aten_params_match(const aten_kernel *k, const size_t *sizes, int nparams)
{
    size_t want[ATEN_MAX_PARAMS];
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

/* An OffsetCalculator<K> at c (len bytes) into operands [a0, a0 + K):
 * dims and sizes (checked against what IntDivider makes and, when set
 * already, the dims and sizes another calculator gave), strides times
 * `scale` (1: bytes; the unrolled kernel's are elements). */
static bool decode_oc(const unsigned char *c, size_t len, int K, int a0, uint32_t const *scale, aten_iter *it)
{
    if (len < (size_t)ATEN_OC_BYTES(K))
        return false;
    int32_t dims;
    memcpy(&dims, c + ATEN_OC_DIMS, sizeof dims);
    if (dims < 1 || dims > ATEN_MAX_DIMS || (it->dims && dims != it->dims))
        return false;
    bool first = it->dims == 0;
    it->dims = dims;
    uint64_t n = 1;
    for (int d = 0; d < dims; d++) {
        aten_int_divider div;
        memcpy(&div, c + ATEN_OC_SIZES + 12 * (size_t)d, sizeof div);
        if (!divider_ok(&div) || (!first && it->size[d] != div.divisor))
            return false;
        it->size[d] = div.divisor;
        n *= div.divisor;
        if (n > 0x7fffffffu)
            return false;
        for (int a = 0; a < K; a++) {
            uint32_t st;
            memcpy(&st, c + ATEN_OC_STRIDES + 4 * ((size_t)d * K + a), 4);
            uint64_t b = (uint64_t)st * (scale ? scale[a0 + a] : 1);
            if (b > 0xffffffffull)
                return false;
            it->stride[d][a0 + a] = (uint32_t)b;
        }
    }
    return (int64_t)n == it->n;
}

static uint32_t scalar_type_size(uint8_t t);

/* A casting closure ends in its K dtypes, then padding to 8: where they
 * start depends on the functor's size, which the name does not say, so
 * every place they can start (ending in the closure's last 8 bytes, after
 * at least a 1-byte functor) is read, and each operand's size bounded by
 * the largest its dtype has at any of them. The true place is among them
 * (its bytes are dtypes), so the bound holds; when every candidate agrees
 * it is exact. No candidate: not decoded. */
static bool cast_dtypes(const unsigned char *c, size_t len, int K, aten_iter *it)
{
    size_t lo = ATEN_EW_NOCAST_FUNCTOR(K) + 1, first = len >= (size_t)K + 7 ? len - (size_t)K - 7 : 0;
    uint32_t big[ATEN_MAX_ARGS] = { 0 }, small[ATEN_MAX_ARGS];
    int found = 0;
    for (size_t d = first > lo ? first : lo; d + (size_t)K <= len; d++) {
        bool ok = true;
        for (int a = 0; ok && a < K; a++)
            ok = scalar_type_size(c[d + (size_t)a]) != 0;
        for (int a = 0; ok && a < K; a++) {
            uint32_t sz = scalar_type_size(c[d + (size_t)a]);
            big[a] = found && big[a] > sz ? big[a] : sz;
            small[a] = found && small[a] < sz ? small[a] : sz;
        }
        found += ok;
    }
    for (int a = 0; found && a < K; a++)
        it->elem[a] = big[a], it->exact[a] = big[a] == small[a];
    return found > 0;
}

/* The OffsetCalculator<K> at the front of a closure, then data; a
 * casting closure's dtypes after the functor. */
static bool decode_legacy(const aten_kernel *k, const unsigned char *c, size_t len, aten_iter *it)
{
    int K = k->nargs;
    if (len < (size_t)ATEN_EW_NOCAST_FUNCTOR(K) || !decode_oc(c, len, K, 0, NULL, it))
        return false;
    for (int a = 0; a < K; a++)
        it->data[a] = load_u64(c + ATEN_EW_NOCAST_DATA(K) + 8 * (size_t)a);
    return !k->cast || cast_dtypes(c, len, K, it);
}

/* c10::ScalarType's element sizes (c10/core/ScalarType.h's numbering, as
 * the launch's dtypes carry them); 0: not a type the casting loaders move. */
static uint32_t scalar_type_size(uint8_t t)
{
    static const uint8_t size[] = { 1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 0, 0, 0, 2 };
    return t < sizeof size ? size[t] : 0;
}

/* LoadWithCast<n>'s and StoreWithCast<1>'s dtypes and sizes: each size
 * the one its dtype has. */
static bool cast_sizes(const unsigned char *load, int n, const unsigned char *store, aten_iter *it)
{
    uint32_t sz;
    memcpy(&sz, store + 4, 4);
    if (!scalar_type_size(store[0]) || scalar_type_size(store[0]) != sz)
        return false;
    it->elem[0] = sz, it->exact[0] = true;
    for (int a = 0; a < n; a++) {
        memcpy(&sz, load + ATEN_ALIGN(n, 4) + 4 * (size_t)a, 4);
        if (!scalar_type_size(load[a]) || scalar_type_size(load[a]) != sz)
            return false;
        it->elem[a + 1] = sz, it->exact[a + 1] = true;
    }
    return true;
}

/* Contiguous (trivial calculators: element i at data + i * size) or
 * strided in elements (the calculators share dims and sizes). */
static bool decode_unrolled(const aten_kernel *k, void *const *p, const size_t *sizes, aten_iter *it)
{
    int K = k->nargs;
    if (k->cast && (K < 2 || !cast_sizes(p[5], K - 1, p[6], it)))
        return false;
    for (int a = 0; a < K; a++) {
        it->data[a] = load_u64((const unsigned char *)p[2] + 8 * (size_t)a);
        if (!it->exact[a]) /* a bound stands in for no element's stride */
            return false;
    }
    if (k->trivial) {
        it->dims = 1;
        it->size[0] = (uint32_t)it->n;
        for (int a = 0; a < K; a++)
            it->stride[0][a] = it->elem[a];
        return true;
    }
    return decode_oc(p[4], sizes[4], 1, 0, it->elem, it) && decode_oc(p[3], sizes[3], K - 1, 1, it->elem, it);
}

/* The output of distribution_nullary_kernel: out_data + i * stride0 (#1) or
 * an OffsetCalculator<1> in bytes (#2). Under graph capture the seed and
 * offset are device pointers: not decoded. */
static bool decode_random(const aten_kernel *k, void *const *p, const size_t *sizes, aten_iter *it)
{
    const unsigned char *c = p[ATEN_RNG_P_TRANSFORM], *ph = p[ATEN_RNG_P_PHILOX];
    size_t len = sizes[ATEN_RNG_P_TRANSFORM];
    if (ph[ATEN_PHILOX_CAPTURED])
        return false;
    if (k->strided) {
        if (len < ATEN_RNG_OC_DATA + 16 || len > ATEN_RNG_OC_DATA + 40 || !decode_oc(c, len, 1, 0, NULL, it))
            return false;
        it->data[0] = load_u64(c + ATEN_RNG_OC_DATA);
        return true;
    }
    int32_t stride;
    memcpy(&stride, c + ATEN_RNG_1D_STRIDE, 4);
    if (len < 16 || len > 48 || stride < 1)
        return false;
    it->dims = 1;
    it->size[0] = (uint32_t)it->n;
    it->stride[0][0] = (uint32_t)stride;
    it->data[0] = load_u64(c + ATEN_RNG_1D_DATA);
    return true;
}

/* ReduceOp: the kept dims (output_calc: [out, in] byte strides) then the
 * reduced ones (input_calc: the input's), as one iteration whose output
 * stride is 0 along the reduced dims. Only a plain reduction decodes: all
 * its outputs (two for Max/Min/Welford: the second at the first's offset
 * / sizeof(out) * its own size, as set_results stores it), no
 * accumulation into them, no partial (base_idx) launch, no global
 * buffers or semaphores (their sizes are the config's). */
static bool decode_reduce(const aten_kernel *k, const unsigned char *c, aten_iter *it)
{
    size_t cfg = ATEN_RO_CONFIG(k->ops_size, k->arg_size, k->arg_align);
    int32_t out_dims, noutputs, in_dims;
    int64_t base;
    int nout = k->nargs - 1, in = k->nargs - 1;
    memcpy(&out_dims, c + ATEN_RO_OUTPUT_CALC(cfg) + ATEN_OC_DIMS, 4);
    memcpy(&in_dims, c + ATEN_RO_INPUT_CALC(cfg) + ATEN_OC_DIMS, 4);
    memcpy(&noutputs, c + ATEN_RO_NOUTPUTS(cfg), 4);
    memcpy(&base, c + ATEN_RO_BASE_IDX(cfg), 8);
    if (noutputs != nout || base != 0 || c[ATEN_RO_ACCUMULATE(cfg)] != 0 || c[ATEN_RO_FINAL_OUTPUT(cfg)] != 1 ||
        load_u64(c + ATEN_RO_ACC_BUF(cfg)) || load_u64(c + ATEN_RO_CTA_BUF(cfg)) ||
        load_u64(c + ATEN_RO_SEMAPHORES(cfg)) || (nout == 1 && load_u64(c + ATEN_RO_DST(cfg) + 8)) ||
        out_dims < 0 || in_dims < 0 || out_dims + in_dims < 1 || out_dims + in_dims > ATEN_MAX_DIMS)
        return false;
    const unsigned char *oc = c + ATEN_RO_OUTPUT_CALC(cfg), *ic = c + ATEN_RO_INPUT_CALC(cfg);
    uint64_t n = 1;
    for (int d = 0; d < out_dims + in_dims; d++) {
        bool o = d < out_dims;
        int dd = o ? d : d - out_dims;
        const unsigned char *calc = o ? oc : ic;
        aten_int_divider div;
        memcpy(&div, calc + ATEN_OC_SIZES + 12 * (size_t)dd, sizeof div);
        if (!divider_ok(&div))
            return false;
        it->size[d] = div.divisor;
        n *= div.divisor;
        if (n > 0x7fffffffu)
            return false;
        uint32_t s0 = 0, s1;
        if (o) {
            memcpy(&s0, oc + ATEN_OC_STRIDES + 4 * ((size_t)dd * 2), 4);
            memcpy(&s1, oc + ATEN_OC_STRIDES + 4 * ((size_t)dd * 2 + 1), 4);
        } else {
            memcpy(&s1, ic + ATEN_OC_STRIDES + 4 * (size_t)dd, 4);
        }
        it->stride[d][0] = s0;
        it->stride[d][in] = s1;
        if (nout == 2) { /* base_offset / sizeof(out) * sizeof(second) */
            uint64_t s = (uint64_t)s0 / k->elem[0] * k->elem[1];
            if (s0 % k->elem[0] || s > 0xffffffffull)
                return false;
            it->stride[d][1] = (uint32_t)s;
        }
    }
    it->dims = out_dims + in_dims;
    it->n = (int64_t)n;
    it->data[0] = load_u64(c + ATEN_RO_DST(cfg));
    if (nout == 2)
        it->data[1] = load_u64(c + ATEN_RO_DST(cfg) + 8);
    it->data[in] = load_u64(c + ATEN_RO_SRC(cfg));
    return true;
}

/* One TensorInfo<T, uint32_t>'s dims appended to it (element strides
 * times elem for operands `ops`, 0 for the others): false unless dims is
 * 1..25 (and the template's when it fixes it) and its sizes make n. */
static bool add_tensor_info(const unsigned char *ti, int want_dims, const int *ops, int nops, aten_iter *it)
{
    int32_t dims;
    memcpy(&dims, ti + ATEN_TI_DIMS, 4);
    if (dims < 1 || dims > (int32_t)ATEN_TI_MAX_DIMS || (want_dims > 0 && dims != want_dims) ||
        it->dims + dims > ATEN_MAX_DIMS)
        return false;
    uint64_t n = 1;
    for (int d = 0; d < dims; d++) {
        uint32_t size, st;
        memcpy(&size, ti + ATEN_TI_SIZES + 4 * (size_t)d, 4);
        memcpy(&st, ti + ATEN_TI_STRIDES + 4 * (size_t)d, 4);
        n *= size;
        if (size == 0 || n > 0x7fffffffu)
            return false;
        int at = it->dims + d;
        it->size[at] = size;
        for (int a = 0; a < it->nargs; a++)
            it->stride[at][a] = 0;
        for (int i = 0; i < nops; i++) {
            uint64_t b = (uint64_t)st * it->elem[ops[i]];
            if (b > 0xffffffffull)
                return false;
            it->stride[at][ops[i]] = (uint32_t)b;
        }
    }
    it->dims += dims;
    return (int64_t)n == it->n;
}

/* Dropout: the vector kernel moves element i of each at data + i * size
 * (contiguous, whatever the TensorInfos say); the plain one a at a's
 * offsets, b and c both at b's. The output and mask dims, then the
 * source's, as one iteration (so it->n is not the product of the sizes:
 * a may-write, never a dense view). Under capture: not decoded. */
static bool decode_dropout(const aten_kernel *k, void *const *p, aten_iter *it)
{
    const unsigned char *ph = p[ATEN_DROPOUT_P_PHILOX];
    if (ph[ATEN_PHILOX_CAPTURED])
        return false;
    it->data[0] = load_u64((const unsigned char *)p[ATEN_DROPOUT_P_B] + ATEN_TI_DATA);
    it->data[1] = load_u64((const unsigned char *)p[ATEN_DROPOUT_P_C] + ATEN_TI_DATA);
    it->data[2] = load_u64((const unsigned char *)p[ATEN_DROPOUT_P_A] + ATEN_TI_DATA);
    if (k->bdims == 0) {
        it->dims = 1;
        it->size[0] = (uint32_t)it->n;
        for (int a = 0; a < 3; a++)
            it->stride[0][a] = it->elem[a];
        return true;
    }
    static const int out[2] = { 0, 1 }, src[1] = { 2 };
    return add_tensor_info(p[ATEN_DROPOUT_P_B], k->bdims, out, 2, it) &&
           add_tensor_info(p[ATEN_DROPOUT_P_A], k->adims, src, 1, it);
}

/* Per tensor of the launch (up to ATEN_MAX_ARGS / depth of them), the
 * bytes its blocks reach in each list. */
typedef struct mt_spans {
    int n;                                     /* tensors seen; > cap: too many to keep apart */
    uint16_t id[ATEN_MAX_ARGS];
    uint64_t lo[ATEN_MAX_ARGS][ATEN_MT_MAX_DEPTH], hi[ATEN_MAX_ARGS][ATEN_MT_MAX_DEPTH];
} mt_spans;

static void mt_add(mt_spans *s, int cap, uint16_t t, int l, uint64_t a, uint64_t z)
{
    int i = 0;
    while (i < s->n && i < cap && s->id[i] != t)
        i++;
    if (i >= cap) {
        s->n = cap + 1;
        return;
    }
    if (i == s->n) {
        s->id[s->n++] = t;
        for (int j = 0; j < ATEN_MT_MAX_DEPTH; j++)
            s->lo[i][j] = UINT64_MAX, s->hi[i][j] = 0;
    }
    s->lo[i][l] = s->lo[i][l] < a ? s->lo[i][l] : a;
    s->hi[i][l] = s->hi[i][l] > z ? s->hi[i][l] : z;
}

/* Operand op: [lo, hi) of e-byte elements, one dimension of its own. */
static bool mt_operand(aten_iter *it, int op, uint64_t lo, uint64_t hi, uint64_t e)
{
    uint64_t n = (hi - lo) / e;
    if (hi <= lo || n > 0xffffffffull || (hi - lo) % e)
        return false;
    it->data[op] = lo;
    it->size[op] = (uint32_t)n;
    it->elem[op] = (uint32_t)e, it->exact[op] = true;
    return true;
}

/* The lists' bytes that the launch's blocks reach: block b takes chunk
 * block_to_chunk[b] (kChunkSize elements, cut at numel) of tensor
 * block_to_tensor[b]; slots past the launch's blocks are stale, so the
 * grid's block count is needed (0: unknown, not decoded). Where every
 * (list, tensor) fits an operand each, they are apart: the written list's
 * tensors first (the caching allocator may put another tensor between two
 * of a list's); otherwise each list is the hull of its chunks. One
 * dimension an operand. */
static bool decode_multi_tensor(const aten_kernel *k, const unsigned char *m, uint64_t blocks, aten_iter *it)
{
    int depth = k->depth, cap = ATEN_MAX_ARGS / depth;
    uint32_t ss = k->list_scalar;
    uint64_t lo[ATEN_MT_MAX_DEPTH], hi[ATEN_MT_MAX_DEPTH], e = k->elem[0];
    mt_spans sp = { 0 };
    /* TensorListMetadata or TensorListScalarListMetadata (abi_multi_tensor.h) */
    size_t b2t = ss ? ATEN_SL_B2T(depth, ss) : ATEN_TL_B2T(depth), b2c = ss ? ATEN_SL_B2C(depth, ss) : ATEN_TL_B2C(depth);
    size_t numels = ss ? ATEN_SL_NUMEL(depth) : ATEN_TL_NUMEL(depth);
    uint32_t max_tensors = ss ? ATEN_MT_MAX_TENSORS_SL(depth) : ATEN_MT_MAX_TENSORS(depth);
    if (blocks < 1 || blocks > ATEN_MT_MAX_BLOCKS)
        return false;
    for (uint64_t b = 0; b < blocks; b++) {
        uint16_t t;
        int32_t c;
        int64_t numel;
        memcpy(&t, m + b2t + 2 * b, 2);
        memcpy(&c, m + b2c + 4 * b, 4);
        if (t >= max_tensors)
            return false;
        memcpy(&numel, m + numels + 8 * (size_t)t, 8);
        if (numel < 1 || numel > 0x7fffffff || c < 0 || (int64_t)c * ATEN_MT_CHUNK >= numel)
            return false;
        uint64_t first = (uint64_t)c * ATEN_MT_CHUNK, end = first + ATEN_MT_CHUNK;
        end = end < (uint64_t)numel ? end : (uint64_t)numel;
        for (int l = 0; l < depth; l++) {
            size_t at = ss ? ATEN_SL_ADDRESSES(depth, l) : ATEN_TL_ADDRESSES(depth, l);
            uint64_t addr = load_u64(m + at + 8 * (size_t)t);
            if (!addr || addr + end * e < addr)
                return false;
            uint64_t a = addr + first * e, z = addr + end * e;
            lo[l] = b && lo[l] < a ? lo[l] : a;
            hi[l] = b && hi[l] > z ? hi[l] : z;
            mt_add(&sp, cap, t, l, a, z);
        }
    }
    bool apart = sp.n <= cap;
    int nt = apart ? sp.n : 1;
    it->nargs = it->dims = depth * nt;
    it->nout = nt;
    for (int op = 0; op < it->nargs; op++) {
        int j = op / nt, ti = op % nt; /* list j in written-first order, tensor ti */
        int l = j == 0 ? k->res : j <= k->res ? j - 1 : j;
        if (!mt_operand(it, op, apart ? sp.lo[ti][l] : lo[l], apart ? sp.hi[ti][l] : hi[l], e))
            return false;
        for (int o = 0; o < it->nargs; o++)
            it->stride[op][o] = o == op ? (uint32_t)e : 0;
    }
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
    return aten_decode_blocks(k, params, sizes, nparams, 0, it);
}

bool aten_decode_blocks(const aten_kernel *k, void *const *params, const size_t *sizes, int nparams, uint64_t blocks,
                        aten_iter *it)
{
    memset(it, 0, sizeof *it);
    /* cat's inputs are grid.y's, not an iteration's operands: aten_cat_decode */
    if (k->family == ATEN_FAM_NONE || k->family == ATEN_FAM_CAT || k->nargs < 1 || k->nargs > ATEN_MAX_ARGS ||
        !aten_params_match(k, sizes, nparams))
        return false;
    int64_t n = 1;
    if (k->family == ATEN_FAM_REDUCE || k->family == ATEN_FAM_MULTI_TENSOR || k->family == ATEN_FAM_POINTERS ||
        k->family == ATEN_FAM_TILED) {
        /* N is the iteration's, from the calculators; the lists'; the tiles' shape */
    } else if (k->family == ATEN_FAM_DROPOUT) {
        uint32_t n32;
        memcpy(&n32, params[ATEN_DROPOUT_P_N], sizeof n32);
        n = n32;
    } else if (k->family == ATEN_FAM_RANDOM) {
        memcpy(&n, params[0], sizeof n);
    } else {
        int32_t n32;
        memcpy(&n32, params[0], sizeof n32);
        n = n32;
    }
    if (n < 1 || n > 0x7fffffff)
        return false;
    it->n = n;
    it->nargs = k->nargs;
    it->nout = k->nout > 1 ? k->nout : 1;
    memcpy(it->elem, k->elem, sizeof it->elem);
    memcpy(it->exact, k->exact, sizeof it->exact);
    bool ok;
    switch (k->family) {
    case ATEN_FAM_LEGACY: ok = decode_legacy(k, params[1], sizes[1], it); break;
    case ATEN_FAM_VECTORIZED: ok = decode_vectorized(k, params[2], it); break;
    case ATEN_FAM_UNROLLED: ok = decode_unrolled(k, params, sizes, it); break;
    case ATEN_FAM_REDUCE: ok = decode_reduce(k, params[0], it); break;
    case ATEN_FAM_DROPOUT: ok = decode_dropout(k, params, it); break;
    case ATEN_FAM_MULTI_TENSOR: ok = decode_multi_tensor(k, params[0], blocks, it); break;
    case ATEN_FAM_TILED: ok = aten_tiled_decode(k, params, it); break;
    case ATEN_FAM_POINTERS: ok = aten_decode_ptr(k, params, blocks, it); break;
    default: ok = decode_random(k, params, sizes, it); break;
    }
    uint64_t m;
    for (int a = 0; ok && a < it->nargs; a++)
        ok = max_offset(it, a, &m) && it->data[a] != 0 && it->data[a] + m + it->elem[a] > it->data[a];
    return ok;
}

bool aten_launch_complete(const aten_kernel *k, const aten_iter *it, unsigned grid, unsigned block)
{
    if (k->family == ATEN_FAM_RANDOM) /* a grid-stride loop up to numel */
        return true;
    if (k->family == ATEN_FAM_REDUCE || k->family == ATEN_FAM_DROPOUT || k->family == ATEN_FAM_MULTI_TENSOR ||
        k->family == ATEN_FAM_POINTERS || k->family == ATEN_FAM_TILED || k->family == ATEN_FAM_CAT)
        /* not modelled (tiled: aten_tiled_complete, per grid dimension): may-writes */
        return false;
    uint64_t per = k->family == ATEN_FAM_VECTORIZED ? 4 : (uint64_t)(k->vt > 0 ? k->vt : 0);
    return (uint64_t)grid * block * per >= (uint64_t)it->n;
}

tf_range aten_operand_range(const aten_kernel *k, const aten_iter *it, int a)
{
    uint64_t m = 0;
    max_offset(it, a, &m);
    (void)k;
    return (tf_range){ it->data[a], it->data[a] + m + it->elem[a] };
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
    (void)k;
    uint64_t e = it->elem[0];
    if (!it->exact[0] || e == 0)
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
