/* torch.arange on the device (preload/aten/abi_range.h):
 * data[i] = xstart + xstep * i in acc_t (int64 for integers, wrapping;
 * a fused multiply-add in float or double, as nvcc emits it), converted to
 * the element type. */
#include "aten.h"
#include "abi_range.h"
#include "dtype.h"
#include "tmpl_args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct rgctx {
    aten_dtype t, acc;
    bool n64; /* index_t is int64_t */
} rgctx;

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const rgctx *c = ctx;
    int64_t n;
    char *data;
    (void)l;
    if (c->n64) {
        memcpy(&n, p[ATEN_ARANGE_N], 8);
    } else {
        int32_t n32;
        memcpy(&n32, p[ATEN_ARANGE_N], 4);
        n = n32;
    }
    memcpy(&data, p[ATEN_ARANGE_DATA], 8);
    size_t as = aten_dtype_size(c->acc), es = aten_dtype_size(c->t);
    const char *f = p[ATEN_ARANGE_F];
    for (int64_t i = 0; i < n; i++) {
        aten_value v = {0};
        if (c->acc == ATEN_LONG) {
            int64_t start, step;
            memcpy(&start, f + ATEN_ARANGE_F_START, 8);
            memcpy(&step, f + ATEN_ARANGE_F_STEP(as), 8);
            v = (aten_value){.is_int = true, .i = (int64_t)((uint64_t)start + (uint64_t)step * (uint64_t)i)};
        } else if (c->acc == ATEN_DOUBLE) {
            double start, step;
            memcpy(&start, f + ATEN_ARANGE_F_START, 8);
            memcpy(&step, f + ATEN_ARANGE_F_STEP(as), 8);
            v = (aten_value){.is_double = true, .d = fma(step, (double)i, start)};
        } else {
            float start, step;
            memcpy(&start, f + ATEN_ARANGE_F_START, 4);
            memcpy(&step, f + ATEN_ARANGE_F_STEP(as), 4);
            v = (aten_value){.d = fmaf(step, (float)i, start)};
        }
        aten_store(c->t, data + i * (int64_t)es, v);
    }
}

/* arange reads no device memory. */
static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    (void)ctx, (void)l, (void)p, (void)out, (void)max;
    return 0;
}

/* AT_DISPATCH_ALL_TYPES_AND2(Half, BFloat16)'s order. */
static const aten_dtype dispatch_order[] = {ATEN_NONE, ATEN_BYTE, ATEN_CHAR, ATEN_INT, ATEN_LONG, ATEN_SHORT,
                                            ATEN_DOUBLE, ATEN_FLOAT, ATEN_HALF, ATEN_BFLOAT16};

bool aten_range_resolve(const char *demangled, simcuda_twin *out)
{
    const char *s, *lam;
    aten_tmpl k;
    if (!aten_starts(demangled, "void (anonymous namespace)::elementwise_kernel_with_index<", &s) || !aten_tmpl_split(s, &k) ||
        k.n != 2 || !aten_tmpl_starts(&k, 1, "at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#", &lam))
        return false;
    char *end;
    long d = strtol(lam, &end, 10);
    if (d < 1 || d >= (long)(sizeof dispatch_order / sizeof *dispatch_order) ||
        strncmp(end, "}::operator()() const::{lambda(long)#1}", 39) != 0)
        return false;
    rgctx c = {.t = dispatch_order[d]};
    c.acc = aten_dtype_is_int(c.t) ? ATEN_LONG : c.t == ATEN_DOUBLE ? ATEN_DOUBLE : ATEN_FLOAT;
    c.n64 = aten_tmpl_is(&k, 0, "long");
    if (!c.n64 && !aten_tmpl_is(&k, 0, "int"))
        return false;
    rgctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin t = {.run = run, .reads = reads, .ctx = ctx,
                   .params = {c.n64 ? 8 : 4, 2 * aten_dtype_size(c.acc), 8, 0}};
    return aten_bind(&t, out);
}
