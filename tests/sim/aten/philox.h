/* curand's Philox4x32-10 generator as ATen's random kernels use it
 * (curand_kernel.h, curand_philox4x32_x.h, curand_uniform.h,
 * curand_normal.h of CUDA 13): the state a thread gets from
 * curand_init(seed, subsequence, offset), curand4's four words, and the
 * conversions to uniform and normal values. Bit for bit, except where the
 * device uses an approximate transcendental (Box-Muller's __sincosf and
 * logf for float, log and sincospi for double): those come from the C
 * library here and may differ from a GPU in the last bits. */
#ifndef ATEN_PHILOX_H
#define ATEN_PHILOX_H

#include <stdint.h>

typedef struct aten_philox {
    uint32_t ctr[4];
    uint32_t out[4]; /* the block at ctr; out[state] is the next word */
    uint32_t key[2];
    unsigned state;
} aten_philox;

/* Ten rounds of Philox4x32 on counter ctr with key. */
void aten_philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* curand_init(seed, subsequence, offset): subsequence moves the counter's
 * high 64 bits, offset counts 32-bit words. */
void aten_philox_init(aten_philox *s, uint64_t seed, uint64_t subsequence, uint64_t offset);

/* curand4: the next four words. */
void aten_philox_next4(aten_philox *s, uint32_t r[4]);

/* curand: the next word. */
uint32_t aten_philox_next(aten_philox *s);

/* _curand_uniform: (0, 1] in steps of 2^-32. */
float aten_curand_uniform(uint32_t x);
/* _curand_uniform_double_hq: 53 bits from two words. */
double aten_curand_uniform_double(uint32_t x, uint32_t y);
/* _curand_box_muller: two normal floats from two words. */
void aten_curand_box_muller(uint32_t x, uint32_t y, float out[2]);
/* _curand_box_muller_double: two normal doubles from four words. */
void aten_curand_box_muller_double(const uint32_t w[4], double out[2]);

#endif
