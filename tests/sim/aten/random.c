/* ATen's random-number kernels (preload/aten/abi_random.h):
 * distribution_elementwise_grid_stride_kernel for uniform_ / rand,
 * normal_ / randn, bernoulli_(p), random_(from, to) / randint, random_,
 * over float, double, half, bfloat16 and the integer types. Each thread
 * of the launch's grid runs curand_init(seed, thread, offset) and draws
 * exactly as on the GPU (philox.h), so the bits equal a GPU's for the same
 * grid, except for normal values (the device's transcendentals). */
#include "aten.h"
#include "abi_random.h"
#include "dtype.h"
#include "offset_calc.h"
#include "philox.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { DRAW_UNIFORM, DRAW_NORMAL, DRAW_BITS } draw_kind;
typedef enum { OP_UNIFORM, OP_NORMAL, OP_BERNOULLI, OP_FROM_TO, OP_RANDOM, OP_FULL64 } op_kind;

typedef struct rctx {
    draw_kind draw;
    op_kind op;
    aten_dtype out;
    bool wide;       /* two doubles / two 64-bit words a draw (else four 32-bit values) */
    bool strided;    /* closure #2 (OffsetCalculator<1>) */
    size_t functor;  /* the op's captures, from the closure's start */
    size_t closure;  /* bytes */
} rctx;

/* One draw: four floats or words, or two doubles or 64-bit words. */
typedef union draw {
    float f[4];
    double d[2];
    uint32_t u[4];
    uint64_t q[2];
} draw;

static void draw_next(const rctx *c, aten_philox *s, draw *v)
{
    uint32_t w[4];
    aten_philox_next4(s, w);
    if (c->draw == DRAW_BITS && c->wide) {
        v->q[0] = (uint64_t)w[0] << 32 | w[1];
        v->q[1] = (uint64_t)w[2] << 32 | w[3];
    } else if (c->draw == DRAW_BITS) {
        memcpy(v->u, w, sizeof w);
    } else if (c->draw == DRAW_UNIFORM && c->wide) {
        v->d[0] = aten_curand_uniform_double(w[0], w[1]);
        v->d[1] = aten_curand_uniform_double(w[2], w[3]);
    } else if (c->draw == DRAW_UNIFORM) {
        for (int i = 0; i < 4; i++)
            v->f[i] = aten_curand_uniform(w[i]);
    } else if (c->wide) {
        aten_curand_box_muller_double(w, v->d);
    } else {
        aten_curand_box_muller(w[0], w[1], v->f);
        aten_curand_box_muller(w[2], w[3], v->f + 2);
    }
}

static double f64(const char *p) { double v; memcpy(&v, p, 8); return v; }
static float f32(const char *p) { float v; memcpy(&v, p, 4); return v; }
static uint64_t u64(const char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* A value rounded to the output's type, as the op's static_cast does. */
static aten_value rounded(aten_dtype t, aten_value v)
{
    char b[8];
    aten_store(t, b, v);
    return aten_load(t, b);
}

static aten_value fp(const rctx *c, double d) { return (aten_value){.d = d, .is_double = c->wide}; }

/* uniform_int<T>: the word modulo T's range of exact values. */
static uint64_t uniform_int(aten_dtype t, uint64_t v)
{
    switch (t) {
    case ATEN_BOOL: return v & 1;
    case ATEN_BYTE: return v % 256;
    case ATEN_CHAR: return v % 128;
    case ATEN_SHORT: return v % 32768;
    case ATEN_INT: return v % 2147483648u;
    case ATEN_LONG: return v % (UINT64_C(1) << 63);
    case ATEN_HALF: return v % ((1u << 11) + 1);
    case ATEN_BFLOAT16: return v % ((1u << 8) + 1);
    case ATEN_FLOAT: return v % ((1u << 24) + 1);
    case ATEN_DOUBLE: return v % ((UINT64_C(1) << 53) + 1);
    default: return v;
    }
}

/* The op's functor on draw value ii, stored at out. */
static void apply(const rctx *c, const char *fn, const draw *v, int ii, char *out)
{
    double r = c->draw == DRAW_BITS ? 0 : c->wide ? v->d[ii] : v->f[ii];
    uint64_t bits = c->draw != DRAW_BITS ? 0 : c->wide ? v->q[ii] : v->u[ii];
    size_t a = c->wide ? 8 : 4, s = aten_dtype_size(c->out);
    aten_value x;
    switch (c->op) {
    case OP_UNIFORM: { /* rand * range + from in opmath, rounded; to becomes from */
        aten_value from = aten_load(c->out, fn + a), to = aten_load(c->out, fn + a + s);
        x = c->wide ? fp(c, fma(r, f64(fn), from.d))
                    : rounded(c->out, fp(c, fmaf((float)r, f32(fn), (float)from.d)));
        if (x.d == to.d)
            x = from;
        break;
    }
    case OP_NORMAL: /* rand * std + mean */
        x = c->wide ? fp(c, fma(r, f64(fn + 8), f64(fn))) : fp(c, fmaf((float)r, f32(fn + 4), f32(fn)));
        break;
    case OP_BERNOULLI: /* rand < p in the accumulate type */
        x = fp(c, c->wide ? (double)(r < f64(fn)) : (double)((float)r < (float)f64(fn)));
        break;
    case OP_FROM_TO: {
        uint64_t range = u64(fn);
        x = (aten_value){.is_int = true, .i = (int64_t)((range ? bits % range : bits) + u64(fn + 8))};
        break;
    }
    case OP_RANDOM:
        x = (aten_value){.is_int = true, .i = (int64_t)uniform_int(c->out, bits)};
        break;
    default: /* OP_FULL64 */
        x = (aten_value){.is_int = true, .i = (int64_t)bits};
        break;
    }
    aten_store(c->out, out, x);
}

/* The seed and offset: values, or under graph capture device pointers. */
static void philox_args(const char *p, uint64_t *seed, uint64_t *offset)
{
    *seed = u64(p + ATEN_PHILOX_SEED);
    *offset = u64(p + ATEN_PHILOX_OFFSET);
    if (p[ATEN_PHILOX_CAPTURED]) {
        const char *sp = (const char *)(uintptr_t)*seed, *op = (const char *)(uintptr_t)*offset;
        *seed = u64(sp);
        *offset = u64(op) + u64(p + ATEN_PHILOX_INTRAGRAPH);
    }
}

static void dump(const rctx *c, void **p)
{
    const unsigned char *b = p[ATEN_RNG_P_TRANSFORM];
    size_t n = c->strided ? c->closure - ATEN_OC_BYTES(1) : c->closure;
    fprintf(stderr, "simcuda rng: closure %zu bytes, functor at %zu:", c->closure, c->functor);
    for (size_t i = c->closure - n; i < c->closure + 8; i++)
        fprintf(stderr, "%s%02x", i % 8 ? "" : " ", b[i]);
    fprintf(stderr, "\n");
}

static void run(const void *ctx, const simcuda_launch *l, void **p)
{
    const rctx *c = ctx;
    int64_t numel;
    uint64_t seed, offset;
    memcpy(&numel, p[ATEN_RNG_P_NUMEL], 8);
    philox_args(p[ATEN_RNG_P_PHILOX], &seed, &offset);
    const char *cl = p[ATEN_RNG_P_TRANSFORM], *fn = cl + c->functor;
    if (getenv("SIMCUDA_RNG_DUMP"))
        dump(c, p);
    aten_oc oc;
    char *data;
    int stride0 = 0;
    if (c->strided) {
        if (!aten_oc_decode(&oc, cl, 1))
            return;
        memcpy(&data, cl + ATEN_RNG_OC_DATA, 8);
    } else {
        memcpy(&data, cl + ATEN_RNG_1D_DATA, 8);
        memcpy(&stride0, cl + ATEN_RNG_1D_STRIDE, 4);
    }
    unsigned unroll = c->wide ? 2 : 4;
    int64_t threads = (int64_t)l->grid[0] * l->block[0];
    if (threads <= 0 || numel <= 0)
        return;
    int64_t step = threads * unroll, rounded_size = ((numel - 1) / step + 1) * step;
    for (int64_t idx = 0; idx < threads; idx++) {
        aten_philox s;
        aten_philox_init(&s, seed, (uint64_t)idx, offset);
        for (int64_t li0 = idx; li0 < rounded_size; li0 += step) {
            draw v;
            draw_next(c, &s, &v);
            for (unsigned ii = 0; ii < unroll; ii++) {
                int64_t li = li0 + threads * ii;
                if (li >= numel)
                    continue;
                uint32_t off[1];
                if (c->strided)
                    aten_oc_offsets(&oc, (uint32_t)li, off);
                char *out = c->strided ? data + off[0] : data + (int64_t)stride0 * (int32_t)li;
                apply(c, fn, &v, (int)ii, out);
            }
        }
    }
}

/* Reads nothing but, under capture, the seed and offset. */
static size_t reads(const void *ctx, const simcuda_launch *l, void **p, simcuda_range *out, size_t max)
{
    (void)ctx;
    (void)l;
    size_t n = 0;
    const char *ph = p[ATEN_RNG_P_PHILOX];
    if (ph[ATEN_PHILOX_CAPTURED]) {
        aten_read_range(out, max, &n, (const void *)(uintptr_t)u64(ph + ATEN_PHILOX_SEED), 8);
        aten_read_range(out, max, &n, (const void *)(uintptr_t)u64(ph + ATEN_PHILOX_OFFSET), 8);
    }
    return n;
}

/* The op from the functor's defining function. */
static bool op_of(const char *name, op_kind *op)
{
    static const struct { const char *fn; op_kind op; } ops[] = {
        {"templates::cuda::uniform_kernel<", OP_UNIFORM},
        {"templates::cuda::normal_kernel<", OP_NORMAL},
        {"templates::cuda::bernoulli_kernel<", OP_BERNOULLI},
        {"templates::cuda::random_from_to_kernel<", OP_FROM_TO},
        {"templates::cuda::random_kernel<", OP_RANDOM},
        {"templates::cuda::random_full_64_bits_range_kernel<", OP_FULL64},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        if (strstr(name, ops[i].fn)) {
            *op = ops[i].op;
            return true;
        }
    }
    return false;
}

/* The op's captures: bytes and alignment (abi_random.h). */
static void functor_shape(const rctx *c, size_t *size, size_t *align)
{
    size_t a = c->wide ? 8 : 4, s = aten_dtype_size(c->out);
    switch (c->op) {
    case OP_UNIFORM: *size = ATEN_ALIGN(a + 2 * s, a); *align = a; break;
    case OP_NORMAL: *size = 2 * a; *align = a; break;
    case OP_BERNOULLI: *size = 8; *align = 8; break;
    case OP_FROM_TO: *size = 16; *align = 8; break;
    default: *size = 1; *align = 1; break;
    }
}

/* The kernel's accumulate type and unroll: the draw it makes. */
static bool draw_of(const char *args, rctx *c)
{
    static const struct { const char *acc; draw_kind draw; bool wide; } shapes[] = {
        {"float, 4,", DRAW_UNIFORM, false}, {"double, 2,", DRAW_UNIFORM, true},
        {"unsigned int, 4,", DRAW_BITS, false}, {"unsigned long, 2,", DRAW_BITS, true},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
        if (aten_starts(args, shapes[i].acc, NULL)) {
            c->draw = shapes[i].draw;
            c->wide = shapes[i].wide;
            return true;
        }
    return false;
}

bool aten_random_resolve(const char *demangled, simcuda_twin *out)
{
    const char *args = strstr(demangled, "distribution_elementwise_grid_stride_kernel<");
    const char *nullary = strstr(demangled, "distribution_nullary_kernel<");
    const char *lambda = NULL;
    for (const char *at = demangled; (at = strstr(at, "{lambda(int, ")) != NULL; at++)
        lambda = at;
    rctx c = {0};
    if (!args || !nullary || !lambda || !op_of(demangled, &c.op) ||
        !draw_of(args + strlen("distribution_elementwise_grid_stride_kernel<"), &c))
        return false;
    if (c.draw != DRAW_BITS && c.op == OP_NORMAL)
        c.draw = strstr(demangled, "normal_and_transform<") ? DRAW_NORMAL : DRAW_UNIFORM;
    if ((c.draw == DRAW_BITS) != (c.op == OP_FROM_TO || c.op == OP_RANDOM || c.op == OP_FULL64))
        return false;
    c.out = aten_dtype_parse(nullary + strlen("distribution_nullary_kernel<"), NULL);
    const char *hash = strchr(lambda, '#');
    if (c.out == ATEN_NONE || !aten_dtype_is_real(c.out) || c.out == ATEN_UINT64 || !hash ||
        (hash[1] != '1' && hash[1] != '2'))
        return false;
    c.strided = hash[1] == '2';
    size_t fsize, falign;
    functor_shape(&c, &fsize, &falign);
    c.functor = c.strided ? ATEN_RNG_OC_FUNCTOR(falign) : ATEN_RNG_1D_FUNCTOR(falign);
    c.closure = ATEN_RNG_CLOSURE_BYTES(c.functor, fsize);
    rctx *ctx = malloc(sizeof *ctx);
    if (!ctx)
        return false;
    *ctx = c;
    aten_twin tw = {.run = run, .reads = reads, .ctx = ctx,
                    .params = {8, ATEN_PHILOX_BYTES, ATEN_RNG_DIST_BYTES, c.closure, 0}};
    return aten_bind(&tw, out);
}
