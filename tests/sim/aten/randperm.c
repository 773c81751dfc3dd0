/* torch.randperm's kernels after its random keys (preload/aten/abi_random.h):
 * cub's single-tile radix sort of (key, value) pairs, a stable sort on the
 * key's bits [current_bit, end_bit), and randperm_handle_duplicate_keys_kernel,
 * which shuffles runs of equal keys with curand (philox.h) as on the GPU.
 * Inputs needing cub's multi-block sorts are not twinned. */
#include "aten.h"
#include "abi_random.h"
#include "dtype.h"
#include "philox.h"
#include "tmpl_args.h"

#include <stdlib.h>
#include <string.h>

typedef struct sctx {
    aten_dtype key;
    size_t value_size; /* 0: keys only */
    size_t offset_size;
    bool descending;
} sctx;

static uint64_t raw(const char *p, size_t size)
{
    uint64_t v = 0;
    memcpy(&v, p, size); /* little-endian: the low bytes */
    return v;
}

static bool is_signed(aten_dtype t) { return t == ATEN_CHAR || t == ATEN_SHORT || t == ATEN_INT || t == ATEN_LONG; }

typedef struct item { uint64_t digit; uint32_t index; } item;

static int by_digit(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->digit != y->digit)
        return x->digit < y->digit ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index; /* stable */
}

static void sort_run(const void *ctx, const simcuda_launch *l, void **p)
{
    const sctx *c = ctx;
    (void)l;
    const char *kin, *vin;
    char *kout, *vout;
    uint64_t n = 0;
    int begin, end;
    memcpy(&kin, p[ATEN_SORT1_P_KEYS_IN], 8);
    memcpy(&kout, p[ATEN_SORT1_P_KEYS_OUT], 8);
    memcpy(&vin, p[ATEN_SORT1_P_VALUES_IN], 8);
    memcpy(&vout, p[ATEN_SORT1_P_VALUES_OUT], 8);
    memcpy(&n, p[ATEN_SORT1_P_N], c->offset_size);
    memcpy(&begin, p[ATEN_SORT1_P_BEGIN], 4);
    memcpy(&end, p[ATEN_SORT1_P_END], 4);
    size_t ks = aten_dtype_size(c->key), vs = c->value_size;
    unsigned bits = (unsigned)(8 * ks);
    if (!n || begin < 0 || end > (int)bits || begin >= end || n > UINT32_MAX)
        return;
    item *it = malloc(n * sizeof *it);
    char *keys = malloc(n * ks), *vals = vs ? malloc(n * vs) : NULL;
    if (!it || !keys || (vs && !vals)) {
        free(it), free(keys), free(vals);
        return;
    }
    memcpy(keys, kin, n * ks);
    if (vs)
        memcpy(vals, vin, n * vs);
    unsigned width = (unsigned)(end - begin);
    uint64_t field = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t u = raw(keys + i * ks, ks);
        if (is_signed(c->key))
            u ^= UINT64_C(1) << (bits - 1); /* cub's twiddle: negatives first */
        uint64_t d = (u >> begin) & field;
        it[i] = (item){c->descending ? field - d : d, (uint32_t)i};
    }
    qsort(it, n, sizeof *it, by_digit);
    for (uint64_t i = 0; i < n; i++) {
        memcpy(kout + i * ks, keys + (size_t)it[i].index * ks, ks);
        if (vs)
            memcpy(vout + i * vs, vals + (size_t)it[i].index * vs, vs);
    }
    free(it), free(keys), free(vals);
}

static size_t sort_reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    const sctx *c = ctx;
    (void)l;
    const char *kin, *vin;
    uint64_t n = 0;
    memcpy(&kin, p[ATEN_SORT1_P_KEYS_IN], 8);
    memcpy(&vin, p[ATEN_SORT1_P_VALUES_IN], 8);
    memcpy(&n, p[ATEN_SORT1_P_N], c->offset_size);
    size_t k = 0;
    aten_read_range(out, max, &k, kin, n * aten_dtype_size(c->key));
    if (c->value_size)
        aten_read_range(out, max, &k, vin, n * c->value_size);
    return k;
}

static bool resolve_sort(const char *s, simcuda_twin *out)
{
    aten_tmpl t;
    const char *inner;
    if (!aten_tmpl_split(s, &t) || t.n != 6)
        return false;
    sctx c = {.key = aten_tmpl_type(&t, 2)};
    long order = -1;
    const char *close = memchr(t.arg[1], ')', t.len[1]);
    if (close && close + 1 < t.arg[1] + t.len[1])
        order = strtol(close + 1, NULL, 10);
    if (order != 0 && order != 1)
        return false;
    c.descending = order == 1;
    if (aten_tmpl_is(&t, 4, "unsigned long long") || aten_tmpl_is(&t, 4, "unsigned long") || aten_tmpl_is(&t, 4, "long"))
        c.offset_size = 8;
    else if (aten_tmpl_is(&t, 4, "unsigned int") || aten_tmpl_is(&t, 4, "int"))
        c.offset_size = 4;
    aten_tmpl o;
    if (aten_tmpl_starts(&t, 3, "at::cuda::cub::detail::OpaqueType<", &inner)) {
        long size;
        if (!aten_tmpl_split(inner, &o) || !aten_tmpl_int(&o, 0, &size) || size < 1 || size > 16)
            return false;
        c.value_size = (size_t)size;
    } else if (aten_tmpl_type(&t, 3) != ATEN_NONE) {
        c.value_size = aten_dtype_size(aten_tmpl_type(&t, 3));
    } else if (!(t.len[3] >= 8 && memcmp(t.arg[3] + t.len[3] - 8, "NullType", 8) == 0)) {
        return false;
    }
    if (!aten_dtype_is_int(c.key) || c.key == ATEN_BOOL || !c.offset_size)
        return false;
    sctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin tw = {.run = sort_run, .reads = sort_reads, .ctx = ctx,
                    .params = {8, 8, 8, 8, c.offset_size, 4, 4, 1, 0}};
    return aten_bind(&tw, out);
}

typedef struct dctx { aten_dtype key; size_t ds; } dctx;

static void dup_run(const void *ctx, const simcuda_launch *l, void **p)
{
    const dctx *c = ctx;
    (void)l;
    const char *keys;
    char *data;
    int n;
    memcpy(&keys, p[ATEN_DUPKEYS_P_KEYS], 8);
    memcpy(&data, p[ATEN_DUPKEYS_P_DATA], 8);
    memcpy(&n, p[ATEN_DUPKEYS_P_N], 4);
    size_t ks = aten_dtype_size(c->key), ds = c->ds;
    uint64_t mask = raw(p[ATEN_DUPKEYS_P_MASK], ks);
    const char *ph = p[ATEN_DUPKEYS_P_PHILOX];
    uint64_t seed = raw(ph + ATEN_PHILOX_SEED, 8), offset = raw(ph + ATEN_PHILOX_OFFSET, 8);
    if (ph[ATEN_PHILOX_CAPTURED]) {
        offset = raw((const char *)(uintptr_t)offset, 8) + raw(ph + ATEN_PHILOX_INTRAGRAPH, 8);
        seed = raw((const char *)(uintptr_t)seed, 8);
    }
#define KEY(i) (raw(keys + (size_t)(i) * ks, ks) & mask)
    for (int tid = 0; tid < n - 1; tid++) {
        if (KEY(tid) != KEY(tid + 1) || (tid && KEY(tid) == KEY(tid - 1)))
            continue; /* not the start of a run */
        int size = 0;
        do
            size++;
        while (tid + size < n && KEY(tid + size) == KEY(tid));
        char *d = data + (size_t)tid * ds, tmp[16];
        aten_philox s;
        aten_philox_init(&s, seed, (uint64_t)tid, offset);
        for (int i = size - 1; i > 0; i--) {
            unsigned r = aten_philox_next(&s) % (unsigned)(i + 1);
            if ((unsigned)i != r) {
                memcpy(tmp, d + (size_t)i * ds, ds);
                memcpy(d + (size_t)i * ds, d + (size_t)r * ds, ds);
                memcpy(d + (size_t)r * ds, tmp, ds);
            }
        }
    }
#undef KEY
}

static bool resolve_dup(const char *s, simcuda_twin *out)
{
    aten_tmpl t;
    if (!aten_tmpl_split(s, &t) || t.n != 2)
        return false;
    dctx c = {aten_tmpl_type(&t, 0), aten_dtype_size(aten_tmpl_type(&t, 1))};
    const char *opaque = memchr(t.arg[1], '<', t.len[1]);
    long size = 0;
    aten_tmpl o;
    if (aten_tmpl_type(&t, 1) == ATEN_NONE) /* randperm's OpaqueType<bytes> */
        c.ds = opaque && aten_tmpl_split(opaque + 1, &o) && aten_tmpl_int(&o, 0, &size) ? (size_t)size : 0;
    if (!aten_dtype_is_int(c.key) || c.key == ATEN_BOOL || c.ds < 1 || c.ds > 16)
        return false;
    dctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin tw = {.run = dup_run, .ctx = ctx, .params = {8, 8, aten_dtype_size(c.key), 4, ATEN_PHILOX_BYTES, 0}};
    return aten_bind(&tw, out);
}

bool aten_randperm_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s = strstr(demangled, "cub::detail::radix_sort::DeviceRadixSortSingleTileKernel<");
    if (s)
        return resolve_sort(strchr(s, '<') + 1, out);
    s = strstr(demangled, "randperm_handle_duplicate_keys_kernel<");
    return s && resolve_dup(strchr(s, '<') + 1, out);
}
