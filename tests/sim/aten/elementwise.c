/* TensorIterator's elementwise kernels (ATen's CUDALoops.cuh), by launch
 * shape; what each element computes is the functor's (ew_functors.c).
 *
 *   elementwise_kernel<nt, vt, closure>(int N, closure): strided; the
 *     closure holds OffsetCalculator<K>, the data pointers, the functor
 *     and, when casting (gpu_kernel_impl), the K dtypes;
 *   vectorized_elementwise_kernel<vec, functor, std::array<char*,K>>
 *     (int N, functor, data): contiguous, no casting;
 *   unrolled_elementwise_kernel<functor, data, vt, inp_calc, out_calc,
 *     loader, storer>(N, ...): contiguous, casting through the loader's
 *     and storer's dtypes (LoadWithCast/StoreWithCast) or not.
 * Layouts: preload/aten/abi.h. The twin runs the whole grid: elements
 * 0..N-1 in order. */
#include "ew.h"
#include "offset_calc.h"

#include <stdlib.h>
#include <string.h>

typedef enum ew_shape { SHAPE_LEGACY, SHAPE_VECTORIZED, SHAPE_UNROLLED } ew_shape;

typedef struct ew_kernel {
    ew_inst op;
    ew_shape shape;
    int K;             /* tensors: output first */
    bool cast;         /* dtypes come from the launch */
    size_t func_off;   /* legacy: the functor in the closure */
    size_t dtypes_off; /* legacy casting: the dtypes in the closure */
    bool trivial_calc; /* unrolled: TrivialOffsetCalculator (else OffsetCalculator) */
} ew_kernel;

/* ---- one launch ---- */

typedef struct ew_launch {
    int N;
    const unsigned char *functor;
    char *data[ATEN_MAX_ARGS];
    aten_dtype types[ATEN_MAX_ARGS];
    aten_oc oc; /* legacy only */
    bool strided;
} ew_launch;

static void read_data(ew_launch *l, const void *p, int K)
{
    memcpy(l->data, p, sizeof(char *) * (size_t)K);
}

static void own_types(const ew_kernel *k, ew_launch *l)
{
    l->types[0] = k->op.res;
    for (int i = 1; i < k->K; i++)
        l->types[i] = k->op.arg[i - 1];
}

/* ScalarType bytes (c10's numbering, dtype.h). */
static void read_types(ew_launch *l, const unsigned char *p, int K)
{
    for (int i = 0; i < K; i++)
        l->types[i] = (aten_dtype)(signed char)p[i];
}

static bool decode(const ew_kernel *k, void **params, ew_launch *l)
{
    memcpy(&l->N, params[0], sizeof l->N);
    own_types(k, l);
    l->strided = false;
    if (k->shape == SHAPE_LEGACY) {
        const unsigned char *c = params[1];
        l->functor = c + k->func_off;
        read_data(l, c + ATEN_EW_NOCAST_DATA(k->K), k->K);
        if (k->cast)
            read_types(l, c + k->dtypes_off, k->K);
        l->strided = true;
        return aten_oc_decode(&l->oc, c, k->K);
    }
    l->functor = params[1];
    read_data(l, params[2], k->K);
    if (k->shape == SHAPE_UNROLLED && k->cast) {
        /* LoadWithCast<n>: n dtypes, then n uint32 sizes; StoreWithCast<1>: dtype, size. */
        read_types(l, params[5], k->K - 1);
        memmove(l->types + 1, l->types, sizeof *l->types * (size_t)(k->K - 1));
        l->types[0] = (aten_dtype)(signed char)*(const unsigned char *)params[6];
    }
    if (k->shape == SHAPE_UNROLLED && !k->trivial_calc) {
        aten_oc in, out;
        if (!aten_oc_decode(&in, params[3], k->K - 1) || !aten_oc_decode(&out, params[4], 1) || in.dims != out.dims)
            return false;
        l->oc = in;
        l->oc.nargs = k->K;
        for (int d = 0; d < in.dims; d++) {
            l->oc.strides[d][0] = out.strides[d][0];
            for (int i = 1; i < k->K; i++)
                l->oc.strides[d][i] = in.strides[d][i - 1];
        }
        l->strided = true;
    }
    return true;
}

static void run(const void *ctx, const simcuda_launch *launch, void **params)
{
    (void)launch;
    const ew_kernel *k = ctx;
    ew_launch l;
    if (!decode(k, params, &l) || l.N <= 0)
        return;
    ew_prep prep;
    ew_prepare(&k->op, l.functor, &prep);
    size_t size[ATEN_MAX_ARGS];
    for (int i = 0; i < k->K; i++)
        size[i] = aten_dtype_size(l.types[i]);
    aten_oc_walk w;
    if (l.strided)
        aten_oc_walk_start(&w, &l.oc);
    for (int idx = 0; idx < l.N; idx++) {
        const void *x[ATEN_MAX_ARGS];
        char *out;
        if (l.strided) {
            out = l.data[0] + w.offsets[0];
            for (int i = 1; i < k->K; i++)
                x[i - 1] = l.data[i] + w.offsets[i];
            aten_oc_walk_next(&w);
        } else {
            out = l.data[0] + (size_t)idx * size[0];
            for (int i = 1; i < k->K; i++)
                x[i - 1] = l.data[i] + (size_t)idx * size[i];
        }
        ew_element(&k->op, &prep, out, l.types[0], x, l.types + 1);
    }
}

/* Every input's bytes: exact when contiguous, the strided footprint's
 * hull otherwise. */
static size_t reads(const void *ctx, const simcuda_launch *launch, void **params, simcuda_range *out, size_t max)
{
    (void)launch;
    const ew_kernel *k = ctx;
    ew_launch l;
    size_t n = 0;
    if (!decode(k, params, &l) || l.N <= 0)
        return 0;
    for (int i = 1; i < k->K; i++) {
        uint32_t elem = (uint32_t)aten_dtype_size(l.types[i]);
        uint64_t lo = 0, hi = (uint64_t)l.N * elem;
        if (l.strided)
            aten_oc_extent(&l.oc, i, (uint32_t)l.N, elem, &lo, &hi);
        aten_read_range(out, max, &n, l.data[i] + lo, (size_t)(hi - lo));
    }
    return n;
}

/* ---- recognising the shapes ---- */

static bool bind(const ew_kernel *proto, const size_t *sizes, simcuda_twin *out)
{
    ew_kernel *k = malloc(sizeof *k);
    if (!k)
        return false;
    *k = *proto;
    aten_twin t = {run, reads, k, {0}};
    for (int i = 0; sizes[i]; i++)
        t.params[i] = sizes[i];
    if (aten_bind(&t, out))
        return true;
    free(k);
    return false;
}

static int array_len(aten_span s)
{
    /* "std::array<char*, 3ul>" */
    aten_span a[2];
    if (!aten_starts(s.s, "std::array<char*, ", NULL) || aten_template_args(s.s + 10, a, 2) != 2)
        return -1;
    return atoi(a[1].s);
}

/* The functor of a legacy closure type, and whether it casts. */
static bool legacy_functor(aten_span c, aten_span *f, bool *cast)
{
    static const char *impls[] = {"at::native::gpu_kernel_impl_nocast<", "at::native::gpu_kernel_impl<"};
    aten_span a[10];
    for (int i = 0; i < 2; i++)
        if (aten_starts(c.s, impls[i], NULL) && aten_template_args(c.s + strlen(impls[i]) - 1, a, 1) == 1) {
            *f = a[0];
            *cast = i == 1;
            return true;
        }
    /* An extended lambda: __nv_hdl_wrapper_t<false, false, false, tag,
     * void (int), OffsetCalculator<K...>, std::array<char*, K>, F const
     * [, std::array<c10::ScalarType, K>]>. */
    int n = aten_starts(c.s, "__nv_hdl_wrapper_t<", NULL) ? aten_template_args(c.s + 18, a, 10) : -1;
    if ((n != 8 && n != 9) || !aten_span_has(a[3], "gpu_kernel_impl") || !aten_starts(a[5].s, "OffsetCalculator<", NULL))
        return false;
    *f = a[7];
    if (f->n > 6 && strncmp(f->s + f->n - 6, " const", 6) == 0)
        f->n -= 6;
    *cast = n == 9;
    return true;
}

static bool resolve_legacy(const char *name, simcuda_twin *out)
{
    aten_span a[3], f;
    ew_kernel k = {.shape = SHAPE_LEGACY};
    if (aten_template_args(name + strlen("void at::native::elementwise_kernel"), a, 3) != 3 ||
        !legacy_functor(a[2], &f, &k.cast) || !ew_functor(f, &k.op))
        return false;
    k.K = k.op.arity + 1;
    if (k.K > ATEN_MAX_ARGS)
        return false;
    k.func_off = ATEN_ALIGN(ATEN_EW_NOCAST_FUNCTOR(k.K), k.op.falign);
    k.dtypes_off = k.func_off + k.op.fsize;
    size_t bytes = k.cast ? ATEN_ALIGN(k.dtypes_off + (size_t)k.K, 8)
                          : ATEN_EW_NOCAST_BYTES(k.K, k.op.fsize, k.op.falign);
    return bind(&k, (const size_t[]){4, bytes, 0}, out);
}

static bool resolve_vectorized(const char *name, simcuda_twin *out)
{
    aten_span a[4];
    ew_kernel k = {.shape = SHAPE_VECTORIZED};
    int n = aten_template_args(name + strlen("void at::native::vectorized_elementwise_kernel"), a, 4);
    if (n < 3 || !ew_functor(a[1], &k.op))
        return false;
    k.K = array_len(a[2]);
    if (k.K != k.op.arity + 1)
        return false;
    return bind(&k, (const size_t[]){4, k.op.fsize, 8 * (size_t)k.K, 0}, out);
}

static size_t calc_bytes(aten_span s, int *K, bool *trivial)
{
    aten_span a[3];
    *trivial = aten_starts(s.s, "TrivialOffsetCalculator<", NULL);
    const char *open = strchr(s.s, '<');
    if (aten_template_args(open, a, 3) < 1)
        return 0;
    *K = atoi(a[0].s);
    return *trivial ? 1 : aten_starts(s.s, "OffsetCalculator<", NULL) ? ATEN_OC_BYTES(*K) : 0;
}

static bool resolve_unrolled(const char *name, simcuda_twin *out)
{
    aten_span a[7];
    ew_kernel k = {.shape = SHAPE_UNROLLED};
    if (aten_template_args(name + strlen("void at::native::unrolled_elementwise_kernel"), a, 7) != 7 ||
        !ew_functor(a[0], &k.op))
        return false;
    k.K = array_len(a[1]);
    int kin = 0, kout = 0;
    bool tin, tout;
    size_t ic = calc_bytes(a[3], &kin, &tin), oc = calc_bytes(a[4], &kout, &tout);
    bool load_cast = aten_starts(a[5].s, "at::native::memory::LoadWithCast<", NULL);
    bool store_cast = aten_starts(a[6].s, "at::native::memory::StoreWithCast<1>", NULL);
    bool load_plain = aten_span_is(a[5], "at::native::memory::LoadWithoutCast");
    bool store_plain = aten_span_is(a[6], "at::native::memory::StoreWithoutCast");
    if (k.K != k.op.arity + 1 || !ic || !oc || tin != tout || kout != 1 || kin != k.op.arity ||
        load_cast != store_cast || (!load_cast && !(load_plain && store_plain)))
        return false;
    k.cast = load_cast;
    k.trivial_calc = tin;
    int nl = k.op.arity > 0 ? k.op.arity : 1;
    size_t loader = load_cast ? (size_t)ATEN_ALIGN(nl, 4) + 4 * (size_t)nl : 1, storer = store_cast ? 8 : 1;
    return bind(&k, (const size_t[]){4, k.op.fsize, 8 * (size_t)k.K, ic, oc, loader, storer, 0}, out);
}

bool aten_elementwise_resolve(const char *demangled, simcuda_twin *out)
{
    if (aten_starts(demangled, "void at::native::elementwise_kernel<", NULL))
        return resolve_legacy(demangled, out);
    if (aten_starts(demangled, "void at::native::vectorized_elementwise_kernel<", NULL))
        return resolve_vectorized(demangled, out);
    if (aten_starts(demangled, "void at::native::unrolled_elementwise_kernel<", NULL))
        return resolve_unrolled(demangled, out);
    return false;
}
