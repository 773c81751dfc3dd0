/* Verify mode's comparison: bitwise on the stand-in, dtype- and k-scaled
 * tolerance on a GPU. */
#include "fixture.h"

#include <math.h>

#include "algebra/verify.h"

static void test_exact(void **state)
{
    (void)state;
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 2, 3, 4, 5, 6};
    tf_verify_result r;
    tf_verify_compare("f32", a, b, 2, 3, 2, 10, true, &r);
    assert_true(r.equal);
    b[3] = nextafterf(4, 5);
    tf_verify_compare("f32", a, b, 2, 3, 2, 10, true, &r);
    assert_false(r.equal);
    assert_int_equal(r.mismatches, 1);
    assert_int_equal(r.worst_i, 1);
    assert_int_equal(r.worst_j, 1);
    assert_true(r.folded == 4.0);
    /* the ld gap (rows 2 of ld 3) is not compared */
    float c[6] = {1, 2, 99, 4, 5, 99}, d[6] = {1, 2, -1, 4, 5, -1};
    tf_verify_compare("f32", c, d, 2, 2, 3, 10, true, &r);
    assert_true(r.equal);
}

static void test_tolerance_scales_with_k_and_dtype(void **state)
{
    (void)state;
    float a[2] = {1000.0f, 1.0f}, b[2] = {1000.0f * (1 + 1e-5f), 1.0f};
    tf_verify_result r;
    tf_verify_compare("f32", a, b, 2, 1, 2, 4, false, &r);
    assert_false(r.equal); /* 1e-5 relative is far above 4 * 2^-23 */
    tf_verify_compare("f32", a, b, 2, 1, 2, 4096, false, &r);
    assert_true(r.equal);
    /* bf16: 1.0 and 1.0078125 differ in the last bit: fine for k = 8 */
    uint16_t h1[1] = {0x3f80}, h2[1] = {0x3f81};
    tf_verify_compare("bf16", h1, h2, 1, 1, 1, 8, false, &r);
    assert_true(r.equal);
    uint16_t h3[1] = {0x4000}; /* 2.0 */
    tf_verify_compare("bf16", h1, h3, 1, 1, 1, 8, false, &r);
    assert_false(r.equal);
    assert_true(r.unfolded == 2.0);
}

static void test_nan_and_complex(void **state)
{
    (void)state;
    float a[4] = {NAN, 1, 2, 3}, b[4] = {NAN, 1, 2, 3.5f};
    tf_verify_result r;
    tf_verify_compare("c64", a, b, 2, 1, 2, 2, false, &r);
    assert_false(r.equal);
    assert_int_equal(r.worst_i, 1);
    b[3] = 3;
    tf_verify_compare("c64", a, b, 2, 1, 2, 2, false, &r);
    assert_true(r.equal);
    assert_true(tf_dtype_size("c128") == 16 && tf_dtype_eps("bf16") == 0x1p-7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_tolerance_scales_with_k_and_dtype),
        cmocka_unit_test(test_nan_and_complex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
