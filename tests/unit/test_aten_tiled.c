/* ATen's tiled transpose copy (preload/aten/tiled.c, abi_tiled.h) on the
 * names torch 2.15.0's kernels carry and synthetic launches: every
 * instantiation is a transpose of its element size, decoded as the
 * TensorIterator copy is; a grid or block that cannot reach every tile is
 * no complete write; shapes that do not validate are not decoded; names of
 * instantiations the wheel does not have are not parsed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "aten/decode.h"
#include "aten/tiled.h"

#define TILED(args) \
    "void at::native::(anonymous namespace)::transpose_copy_tiled_kernel<" args ">(unsigned int const*, unsigned int*, long, long, long, long)"

typedef struct launch { uint64_t src, dst; int64_t w, h, sp, dp; void *p[6]; size_t sizes[6]; } launch;

static void launch_init(launch *l, int64_t w, int64_t h, int64_t sp, int64_t dp)
{
    *l = (launch){ .src = 0x10000000, .dst = 0x20000000, .w = w, .h = h, .sp = sp, .dp = dp };
    void *p[6] = { &l->src, &l->dst, &l->w, &l->h, &l->sp, &l->dp };
    memcpy(l->p, p, sizeof p);
    for (int i = 0; i < 6; i++)
        l->sizes[i] = 8;
}

static void test_names(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(TILED("unsigned int, 2, 4, 32, false"), &k));
    assert_int_equal(k.family, ATEN_FAM_TILED);
    assert_int_equal(k.elem[0], 2);
    assert_string_equal(k.dtype, "16-bit");
    assert_true(aten_kernel_parse(TILED("unsigned int, 4, 4, 32, true"), &k));
    assert_int_equal(k.elem[0], 1);
    assert_true(k.tiled.grid_stride);
    assert_true(aten_kernel_parse(TILED("unsigned int, 1, 4, 64, false"), &k));
    assert_int_equal(k.elem[0], 4);
    assert_true(aten_kernel_parse(TILED("unsigned long, 1, 1, 32, false"), &k));
    assert_int_equal(k.elem[0], 8);
    assert_true(aten_kernel_parse(TILED("unsigned char, 1, 1, 32, true"), &k));
    assert_int_equal(k.elem[0], 1);
    /* Not torch 2.15.0's: another tile, a vectorized 8-byte unit, a batched form. */
    assert_false(aten_kernel_parse(TILED("unsigned int, 1, 1, 64, false"), &k));
    assert_false(aten_kernel_parse(TILED("unsigned long, 2, 4, 32, false"), &k));
    assert_false(aten_kernel_parse(TILED("unsigned int, true, 1, 1, 32"), &k));
    assert_false(aten_kernel_parse(TILED("float, 1, 1, 32, false"), &k));
}

/* bf16 W [512, 256] transposed, vectorized: in words, width 128, height 256. */
static void test_decode_is_transpose(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(TILED("unsigned int, 2, 4, 32, false"), &k));
    launch l;
    launch_init(&l, 128, 256, 128, 256);
    aten_iter it;
    assert_true(aten_decode(&k, l.p, l.sizes, 6, &it));
    assert_int_equal(it.n, 512 * 256);
    tf_view src, dst;
    assert_true(aten_transpose(&k, &it, &src, &dst));
    assert_int_equal(dst.addr, 0x20000000);
    assert_int_equal(dst.elem, 2);
    assert_int_equal(dst.rows, 512);
    assert_int_equal(dst.cols, 256);
    assert_int_equal(dst.ld, 512);
    assert_int_equal(src.addr, 0x10000000);
    assert_int_equal(src.rows, 256);
    assert_int_equal(src.cols, 512);
    assert_int_equal(src.ld, 256);
    tf_range r = aten_operand_range(&k, &it, 0);
    assert_int_equal(r.hi - r.lo, 512 * 256 * 2);
    /* grid (256 / 64 word tiles of 32 across, 8 down), blocks (8, 32). */
    unsigned grid[3] = { 4, 8, 1 }, block[3] = { 8, 32, 1 };
    assert_true(aten_tiled_complete(&k, &it, grid, block));
    grid[1] = 7; /* a tile row short */
    assert_false(aten_tiled_complete(&k, &it, grid, block));
    grid[1] = 8, block[1] = 16; /* half the rows of each tile */
    assert_false(aten_tiled_complete(&k, &it, grid, block));
}

/* A source row pitch wider than the row (a slice's transpose): still a
 * transpose, read through its ld; a destination pitch wider than its row
 * is no dense output: not a transpose, a may-write. */
static void test_pitches(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(TILED("unsigned long, 1, 1, 32, false"), &k));
    launch l;
    launch_init(&l, 100, 40, 160, 40);
    aten_iter it;
    tf_view src, dst;
    assert_true(aten_decode(&k, l.p, l.sizes, 6, &it));
    assert_true(aten_transpose(&k, &it, &src, &dst));
    assert_int_equal(src.ld, 160);
    launch_init(&l, 100, 40, 100, 48);
    assert_true(aten_decode(&k, l.p, l.sizes, 6, &it));
    assert_false(aten_transpose(&k, &it, &src, &dst));
}

static void test_invalid_shapes(void **state)
{
    (void)state;
    aten_kernel k;
    aten_iter it;
    launch l;
    assert_true(aten_kernel_parse(TILED("unsigned short, 1, 1, 32, false"), &k));
    launch_init(&l, 0, 40, 100, 40); /* empty */
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
    launch_init(&l, 100, 40, 99, 40); /* rows overlap */
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
    launch_init(&l, 100, 40, 100, 39);
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
    launch_init(&l, 1 << 20, 1 << 20, 1 << 20, 1 << 20); /* past 32-bit offsets */
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
    launch_init(&l, 100, 40, 100, 40);
    l.sizes[5] = 4; /* another layout */
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
    l.sizes[5] = 8, l.src = 0;
    assert_false(aten_decode(&k, l.p, l.sizes, 6, &it));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names), cmocka_unit_test(test_decode_is_transpose),
        cmocka_unit_test(test_pitches), cmocka_unit_test(test_invalid_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
