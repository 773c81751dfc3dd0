/* curand's Philox4x32-10 (see philox.h). Written from the behaviour the
 * public curand headers describe; the test (tests/torch/twins_random.py)
 * checks it against an independent Python model and Random123's known
 * answers. */
#include "philox.h"

#include <math.h>

#define W0 0x9E3779B9u
#define W1 0xBB67AE85u
#define M0 0xD2511F53u
#define M1 0xCD9E8D57u

static void round1(uint32_t c[4], const uint32_t k[2])
{
    uint64_t p0 = (uint64_t)M0 * c[0], p1 = (uint64_t)M1 * c[2];
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k[0];
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k[1];
    c[0] = n0;
    c[1] = (uint32_t)p1;
    c[2] = n2;
    c[3] = (uint32_t)p0;
}

void aten_philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k[2] = {key[0], key[1]};
    for (int r = 0; r < 10; r++) {
        if (r) {
            k[0] += W0;
            k[1] += W1;
        }
        round1(c, k);
    }
    for (int i = 0; i < 4; i++)
        out[i] = c[i];
}

/* The 128-bit counter as two 64-bit halves. */
static uint64_t lo64(const uint32_t c[4]) { return (uint64_t)c[1] << 32 | c[0]; }
static uint64_t hi64(const uint32_t c[4]) { return (uint64_t)c[3] << 32 | c[2]; }
static void set_ctr(uint32_t c[4], uint64_t lo, uint64_t hi)
{
    c[0] = (uint32_t)lo;
    c[1] = (uint32_t)(lo >> 32);
    c[2] = (uint32_t)hi;
    c[3] = (uint32_t)(hi >> 32);
}

/* The counter plus n (carrying into the high half). */
static void ctr_add(uint32_t c[4], uint64_t n)
{
    uint64_t lo = lo64(c) + n, hi = hi64(c) + (lo < n);
    set_ctr(c, lo, hi);
}

void aten_philox_init(aten_philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset)
{
    s->key[0] = (uint32_t)seed;
    s->key[1] = (uint32_t)(seed >> 32);
    set_ctr(s->ctr, 0, subsequence); /* skipahead_sequence: high half, no carry out */
    s->state = (unsigned)(offset & 3);  /* skipahead: whole blocks, then words */
    ctr_add(s->ctr, offset / 4);
    aten_philox_block(s->ctr, s->key, s->out);
}

void aten_philox_next4(aten_philox *s, uint32_t r[4])
{
    uint32_t prev[4] = {s->out[0], s->out[1], s->out[2], s->out[3]};
    ctr_add(s->ctr, 1);
    aten_philox_block(s->ctr, s->key, s->out);
    /* four words from state on: the rest of the old block, then the new one */
    for (unsigned i = 0; i < 4; i++) {
        unsigned w = s->state + i;
        r[i] = w < 4 ? prev[w] : s->out[w - 4];
    }
}

uint32_t aten_philox_next(aten_philox *s)
{
    uint32_t r = s->out[s->state++];
    if (s->state == 4) {
        ctr_add(s->ctr, 1);
        aten_philox_block(s->ctr, s->key, s->out);
        s->state = 0;
    }
    return r;
}

#define INV32 2.3283064e-10f /* curand's CURAND_2POW32_INV, 2^-32 */
#define INV53 1.1102230246251565e-16
#define INV32_2PI (2.3283064e-10f * 6.2831855f)

/* nvcc contracts x * a + b into one fused multiply-add. */
float aten_curand_uniform(uint32_t x) { return fmaf((float)x, INV32, INV32 / 2.0f); }

static double hq(uint32_t x, uint32_t y)
{
    return (double)((uint64_t)x ^ ((uint64_t)y << 21));
}

double aten_curand_uniform_double(uint32_t x, uint32_t y) { return fma(hq(x, y), INV53, INV53 / 2.0); }

void aten_curand_box_muller(uint32_t x, uint32_t y, float out[2])
{
    float u = fmaf((float)x, INV32, INV32 / 2);
    float v = fmaf((float)y, (float)INV32_2PI, (float)INV32_2PI / 2);
    float s = sqrtf(-2.0f * logf(u));
    out[0] = sinf(v) * s;
    out[1] = cosf(v) * s;
}

void aten_curand_box_muller_double(const uint32_t w[4], double out[2])
{
    double u = fma(hq(w[0], w[1]), INV53, INV53 / 2.0);
    double v = fma(hq(w[2], w[3]), INV53 * 2.0, INV53);
    double s = sqrt(-2.0 * log(u));
    /* the device's sincospi(v), nearly correctly rounded: pi v in long double */
    long double a = (long double)v * 3.14159265358979323846264338327950288L;
    out[0] = (double)sinl(a) * s;
    out[1] = (double)cosl(a) * s;
}
