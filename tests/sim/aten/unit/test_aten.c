/* The ATen twins' building blocks: OffsetCalculator decoding (as ATen
 * lays it out, stale slots and all), the half/bfloat16 conversions (every
 * bit pattern), ATen's conversion rules, and reading demangled names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dtype.h"
#include "names.h"
#include "offset_calc.h"

/* An OffsetCalculator<K> image: dims, dividers, byte strides; every other
 * byte holds garbage, as a launch's stale stack does. */
static void oc_image(unsigned char *img, int K, int dims, const uint32_t *sizes, const uint32_t strides[][3])
{
    memset(img, 0xa5, ATEN_OC_BYTES(K));
    memcpy(img + ATEN_OC_DIMS, &dims, 4);
    for (int d = 0; d < dims; d++) {
        aten_int_divider div = {sizes[d], 0x12345678u, 7};
        memcpy(img + ATEN_OC_SIZES + 12 * d, &div, 12);
        for (int k = 0; k < K; k++)
            memcpy(img + ATEN_OC_STRIDES + 4 * (d * K + k), &strides[d][k], 4);
    }
}

/* W.t().contiguous() on bf16 [64, 96], as measured on torch 2.15.0. */
static void test_oc_transpose(void **state)
{
    (void)state;
    unsigned char img[ATEN_OC_BYTES(2)];
    const uint32_t sizes[] = {64, 96};
    const uint32_t strides[][3] = {{2, 192}, {128, 2}};
    oc_image(img, 2, 2, sizes, strides);
    aten_oc oc;
    assert_true(aten_oc_decode(&oc, img, 2));
    assert_int_equal(oc.dims, 2);
    aten_oc_walk w;
    aten_oc_walk_start(&w, &oc);
    for (uint32_t idx = 0; idx < 64 * 96; idx++) {
        uint32_t off[ATEN_MAX_ARGS], i = idx % 64, j = idx / 64;
        aten_oc_offsets(&oc, idx, off);
        assert_int_equal(off[0], i * 2 + j * 128);
        assert_int_equal(off[1], i * 192 + j * 2);
        assert_int_equal(w.offsets[0], off[0]);
        assert_int_equal(w.offsets[1], off[1]);
        aten_oc_walk_next(&w);
    }
    uint64_t lo, hi;
    aten_oc_extent(&oc, 1, 64 * 96, 2, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 63 * 192 + 95 * 2 + 2);
    aten_oc_extent(&oc, 1, 10, 2, &lo, &hi); /* part of the first column */
    assert_int_equal(hi, 9 * 192 + 2);
}

/* Three arguments, three dimensions, a broadcast (stride 0). */
static void test_oc_broadcast(void **state)
{
    (void)state;
    unsigned char img[ATEN_OC_BYTES(3)];
    const uint32_t sizes[] = {5, 3, 2};
    const uint32_t strides[][3] = {{4, 4, 0}, {20, 0, 4}, {60, 12, 8}};
    oc_image(img, 3, 3, sizes, strides);
    aten_oc oc;
    assert_true(aten_oc_decode(&oc, img, 3));
    aten_oc_walk w;
    aten_oc_walk_start(&w, &oc);
    for (uint32_t idx = 0; idx < 30; idx++) {
        uint32_t off[ATEN_MAX_ARGS], a = idx % 5, b = idx / 5 % 3, c = idx / 15;
        aten_oc_offsets(&oc, idx, off);
        assert_int_equal(off[0], a * 4 + b * 20 + c * 60);
        assert_int_equal(off[1], a * 4 + c * 12);
        assert_int_equal(off[2], b * 4 + c * 8);
        for (int k = 0; k < 3; k++)
            assert_int_equal(w.offsets[k], off[k]);
        aten_oc_walk_next(&w);
    }
}

static void test_oc_rejects(void **state)
{
    (void)state;
    unsigned char img[ATEN_OC_BYTES(2)];
    aten_oc oc;
    const uint32_t sizes[] = {1};
    const uint32_t strides[][3] = {{4, 4}};
    oc_image(img, 2, 1, sizes, strides);
    int bad = 26;
    memcpy(img, &bad, 4);
    assert_false(aten_oc_decode(&oc, img, 2));
    bad = -1;
    memcpy(img, &bad, 4);
    assert_false(aten_oc_decode(&oc, img, 2));
    bad = 0; /* a 0-dim iterator: every offset is 0 */
    memcpy(img, &bad, 4);
    assert_true(aten_oc_decode(&oc, img, 2));
    uint32_t off[ATEN_MAX_ARGS] = {1, 1};
    aten_oc_offsets(&oc, 0, off);
    assert_int_equal(off[0] + off[1], 0);
}

/* Every half and bfloat16 survives the trip through float; NaNs become
 * c10's quiet NaN with their sign. */
static void test_half_bf16_roundtrip(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = aten_half_to_float((uint16_t)h);
        if (isnan(f))
            assert_int_equal(aten_float_to_half(f), (h & 0x8000) | 0x7e00);
        else
            assert_int_equal(aten_float_to_half(f), h);
        float g = aten_bf16_to_float((uint16_t)h);
        if (isnan(g))
            assert_int_equal(aten_float_to_bf16(g), (h & 0x8000) | 0x7fc0);
        else
            assert_int_equal(aten_float_to_bf16(g), h);
    }
}

/* Rounding to nearest, ties to even, overflow and subnormals. */
static void test_half_bf16_rounding(void **state)
{
    (void)state;
    assert_int_equal(aten_float_to_half(1.0f + 0x1p-11f), 0x3c00);            /* tie: to even */
    assert_int_equal(aten_float_to_half(1.0f + 3 * 0x1p-11f), 0x3c02);        /* tie: to even (up) */
    assert_int_equal(aten_float_to_half(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01); /* above the tie */
    assert_int_equal(aten_float_to_half(65504.0f), 0x7bff);
    assert_int_equal(aten_float_to_half(65519.0f), 0x7bff);
    assert_int_equal(aten_float_to_half(65520.0f), 0x7c00);
    assert_int_equal(aten_float_to_half(-INFINITY), 0xfc00);
    assert_int_equal(aten_float_to_half(0x1p-24f), 0x0001);
    assert_int_equal(aten_float_to_half(0x1p-25f), 0x0000);                   /* tie: to even (0) */
    assert_int_equal(aten_float_to_half(0x1.8p-24f), 0x0002);                 /* tie: to even (2) */
    assert_int_equal(aten_float_to_half(-0.0f), 0x8000);
    assert_int_equal(aten_float_to_half(0x1.ffcp-15f), 0x0400);               /* rounds up to the first normal */
    assert_int_equal(aten_float_to_bf16(1.0f + 0x1p-8f), 0x3f80);             /* tie: to even */
    assert_int_equal(aten_float_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
    assert_int_equal(aten_float_to_bf16(3.4e38f), 0x7f80);                    /* rounds to infinity */
}

static void convert(aten_dtype dst, void *d, aten_dtype src, const void *s) { aten_convert(dst, d, src, s); }

/* ATen's rules: double narrows to half through float (rounding twice);
 * int64 to float rounds once; floats truncate to integers through int64. */
static void test_conversions(void **state)
{
    (void)state;
    uint16_t h;
    /* 1 + 2^-11 + 2^-40: nearest half is 1 + 2^-10, but through float it
     * is exactly the tie 1 + 2^-11, which goes to even: 1.0. */
    double d = 1.0 + 0x1p-11 + 0x1p-40;
    convert(ATEN_HALF, &h, ATEN_DOUBLE, &d);
    assert_int_equal(h, 0x3c00);
    int64_t big = (1LL << 53) + 1;
    float f;
    convert(ATEN_FLOAT, &f, ATEN_LONG, &big);
    assert_true(f == 0x1p53f);
    float neg = -2.75f;
    int32_t i;
    convert(ATEN_INT, &i, ATEN_FLOAT, &neg);
    assert_int_equal(i, -2);
    uint8_t u;
    float m = -3.0f; /* uint8 from float: through int64, wrapping */
    convert(ATEN_BYTE, &u, ATEN_FLOAT, &m);
    assert_int_equal(u, 253);
    uint8_t b;
    float nz = -0.0f, half = 0.5f;
    convert(ATEN_BOOL, &b, ATEN_FLOAT, &nz);
    assert_int_equal(b, 0);
    convert(ATEN_BOOL, &b, ATEN_FLOAT, &half);
    assert_int_equal(b, 1);
    uint16_t bf, hf = 0x3555; /* half -> bfloat16 through float */
    convert(ATEN_BFLOAT16, &bf, ATEN_HALF, &hf);
    assert_int_equal(bf, aten_float_to_bf16(aten_half_to_float(0x3555)));
}

static void test_names(void **state)
{
    (void)state;
    const char *n = "vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, "
                    "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>, false>(int)";
    aten_span a[4];
    assert_int_equal(aten_template_args(strchr(n, '<'), a, 4), 4);
    assert_true(aten_span_is(a[0], "4"));
    assert_true(aten_span_is(a[2], "std::array<char*, 2ul>"));
    assert_true(aten_span_has(a[1], "MulFunctor<float>"));
    assert_int_equal(aten_template_args(strchr(n, '<'), a, 3), -1);
    const char *l = "at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
                    "{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
                    "{lambda(c10::BFloat16, c10::BFloat16)#1}";
    aten_span p[3];
    int np, num;
    assert_true(aten_lambda((aten_span){l, strlen(l)}, p, 3, &np, &num));
    assert_int_equal(np, 2);
    assert_int_equal(num, 1);
    assert_true(aten_span_is(p[1], "c10::BFloat16"));
    const char *rest;
    assert_int_equal(aten_dtype_parse("unsigned char)", &rest), ATEN_BYTE);
    assert_int_equal(aten_dtype_parse("c10::complex<float>", &rest), ATEN_COMPLEX_FLOAT);
    assert_int_equal(aten_dtype_parse("integer", &rest), ATEN_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oc_transpose),     cmocka_unit_test(test_oc_broadcast),
        cmocka_unit_test(test_oc_rejects),       cmocka_unit_test(test_half_bf16_roundtrip),
        cmocka_unit_test(test_half_bf16_rounding), cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
