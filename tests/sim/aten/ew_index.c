/* gpu_kernel_with_index's kernel: elementwise_kernel_with_index<index_t,
 * F>(index_t N, F f, scalar_t *data), data[i] = f(i). Only arange's
 * lambda is known: [xstart, xstep](int64_t i) -> scalar_t { return xstart
 * + i * xstep; } with accscalar captures (float for half, bfloat16 and
 * float; double; int64 for integers). The output type is not in the name:
 * it is the dispatch case, AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16)'s
 * order (measured: int 3, long 4, float 7, half 8, bfloat16 9). */
#include "ew.h"

#include <stdlib.h>

static const aten_dtype arange_cases[] = {ATEN_NONE, ATEN_BYTE, ATEN_CHAR, ATEN_INT, ATEN_LONG, ATEN_SHORT,
                                          ATEN_DOUBLE, ATEN_FLOAT, ATEN_HALF, ATEN_BFLOAT16};

typedef struct ew_index_kernel {
    bool long_index; /* index_t is int64 */
    aten_dtype out;  /* scalar_t */
    aten_dtype acc;  /* the captures' type */
} ew_index_kernel;

static int64_t count(const ew_index_kernel *k, void **params)
{
    if (k->long_index) {
        int64_t n;
        memcpy(&n, params[0], 8);
        return n;
    }
    int32_t n;
    memcpy(&n, params[0], 4);
    return n;
}

static void run(const void *ctx, const simcuda_launch *launch, void **params)
{
    (void)launch;
    const ew_index_kernel *k = ctx;
    const unsigned char *f = params[1];
    char *data;
    memcpy(&data, params[2], sizeof data);
    size_t cs = aten_dtype_size(k->acc), os = aten_dtype_size(k->out);
    aten_value start = aten_load(k->acc, f), step = aten_load(k->acc, f + cs);
    for (int64_t i = 0, n = count(k, params); i < n; i++) {
        aten_value v = start;
        if (k->acc == ATEN_LONG)
            v.i = (int64_t)((uint64_t)start.i + (uint64_t)i * (uint64_t)step.i);
        else if (k->acc == ATEN_DOUBLE)
            v.d = start.d + (double)i * step.d;
        else
            v.d = (float)start.d + (float)i * (float)step.d;
        aten_store(k->out, data + (size_t)i * os, v);
    }
}

static size_t reads(const void *ctx, const simcuda_launch *launch, void **params, simcuda_range *out, size_t max)
{
    (void)ctx, (void)launch, (void)params, (void)out, (void)max;
    return 0; /* it only writes */
}

bool ew_with_index_resolve(const char *name, simcuda_twin *out)
{
    static const char prefix[] = "void (anonymous namespace)::elementwise_kernel_with_index<";
    static const char arange[] = "at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, "
                                 "c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#";
    aten_span a[2];
    if (!aten_starts(name, prefix, NULL) || aten_template_args(name + sizeof prefix - 2, a, 2) != 2 ||
        !aten_starts(a[1].s, arange, NULL))
        return false;
    int which = atoi(a[1].s + sizeof arange - 1);
    if (which < 1 || which > 9 || !aten_span_has(a[1], "::{lambda(long)#1}"))
        return false;
    ew_index_kernel *k = malloc(sizeof *k);
    if (!k)
        return false;
    k->long_index = aten_span_is(a[0], "long");
    k->out = arange_cases[which];
    k->acc = aten_dtype_is_float(k->out) ? (k->out == ATEN_DOUBLE ? ATEN_DOUBLE : ATEN_FLOAT) : ATEN_LONG;
    aten_twin t = {run, reads, k, {k->long_index ? 8 : 4, 2 * aten_dtype_size(k->acc), 8, 0}};
    if (aten_bind(&t, out))
        return true;
    free(k);
    return false;
}
