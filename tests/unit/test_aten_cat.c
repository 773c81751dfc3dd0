/* ATen's torch.cat kernels (preload/aten/cat.c, abi_cat.h) on the names
 * torch 2.15.0's instantiations carry and synthetic launches laid out as
 * the ABI says: each input's footprint read, the output regions written
 * (consecutive inputs joined; exact views where dense, may-writes where
 * not), the vectorized kernel's units, strided inputs' hulls, more inputs
 * than an access lists; and launches that do not validate refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "aten/cat.h"
#include "aten/decode.h"
#include "engine.h"

#define NS "at::native::(anonymous namespace)::"
#define CAT(form, args) "void " NS "CatArrayBatchedCopy" form "<" NS "OpaqueType<" args ">(char*)"

/* A launch's parameter bytes, as the route hands them. */
typedef struct launch {
    uint64_t out;
    unsigned char meta[4096];
    unsigned char os[ATEN_CAT_SIZE_STRIDE_BYTES];
    int32_t concat;
    uint32_t last;
    void *p[ATEN_CAT_NPARAMS];
    size_t sizes[ATEN_CAT_NPARAMS];
    unsigned grid[3], block[3];
} launch;

static void put32(unsigned char *b, size_t off, uint32_t v) { memcpy(b + off, &v, 4); }

/* Output sizes and strides (dims of them), concat, last, no inputs yet. */
static void launch_init(launch *l, const aten_kernel *k, int dims, const uint32_t *size, const uint32_t *stride,
                        int concat, uint32_t last)
{
    memset(l, 0, sizeof *l);
    l->out = 0x40000000;
    for (int d = 0; d < dims; d++) {
        put32(l->os, ATEN_CAT_OS_SIZE + 4 * (size_t)d, size[d]);
        put32(l->os, ATEN_CAT_OS_STRIDE + 4 * (size_t)d, stride[d]);
    }
    l->concat = concat;
    l->last = last;
    void *p[ATEN_CAT_NPARAMS] = { &l->out, l->meta, l->os, &l->concat, &l->last };
    memcpy(l->p, p, sizeof p);
    size_t n;
    int count;
    assert_true(aten_expected_params(k, l->sizes, &count));
    assert_int_equal(count, ATEN_CAT_NPARAMS);
    n = l->sizes[ATEN_CAT_P_INPUTS];
    assert_true(n <= sizeof l->meta);
    l->grid[0] = 4, l->grid[1] = 0, l->grid[2] = 1;
    l->block[0] = 512, l->block[1] = l->block[2] = 1;
}

/* Input grid.y: data, offset, dimSize, nElements (contiguous). */
static unsigned add_input(launch *l, const aten_kernel *k, uint64_t data, uint32_t offset, uint32_t dim_size, uint32_t n)
{
    unsigned i = l->grid[1]++, b = k->cat.batch;
    memcpy(l->meta + ATEN_CAT_INPUT + 8 * i, &data, 8);
    put32(l->meta, ATEN_CAT_OFFSET_B(b) + 4 * i, offset);
    put32(l->meta, ATEN_CAT_DIM_SIZE_B(b) + 4 * i, dim_size);
    put32(l->meta, ATEN_CAT_NELEMENTS_B(b) + 4 * i, n);
    l->meta[ATEN_CAT_IS_CONTIGUOUS_B(b) + i] = 1;
    return i;
}

/* Input i read through its own sizes and strides (the strided kernel). */
static void input_strided(launch *l, const aten_kernel *k, unsigned i, int dims, const uint32_t *size,
                          const uint32_t *stride)
{
    unsigned b = k->cat.batch;
    l->meta[ATEN_CAT_IS_CONTIGUOUS_B(b) + i] = 0;
    size_t ss = ATEN_CAT_TENSOR_STRIDE_B(b) + ATEN_CAT_SIZE_STRIDE_BYTES * i;
    for (int d = 0; d < dims; d++) {
        put32(l->meta, ss + ATEN_CAT_OS_SIZE + 4 * (size_t)d, size[d]);
        put32(l->meta, ss + ATEN_CAT_OS_STRIDE + 4 * (size_t)d, stride[d]);
    }
}

static bool decode(const aten_kernel *k, launch *l, aten_cat_ops *ops)
{
    return aten_params_match(k, l->sizes, ATEN_CAT_NPARAMS) && aten_cat_decode(k, l->p, l->grid, l->block, ops);
}

static void test_names(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128, 1"), &k));
    assert_int_equal(k.family, ATEN_FAM_CAT);
    assert_int_equal(k.cat.kind, ATEN_CAT_CONTIG);
    assert_int_equal(k.elem[0], 4);
    assert_string_equal(k.dtype, "32-bit");
    assert_false(k.copy); /* never a transpose producer */
    assert_true(aten_kernel_parse(CAT("_alignedK_contig", "2u>, unsigned int, 4, 128, 1, 16"), &k));
    assert_int_equal(k.cat.kind, ATEN_CAT_ALIGNED);
    assert_int_equal(k.cat.alignment, 16);
    assert_true(aten_kernel_parse(CAT("_vectorized", "2u>, unsigned int, 3, 128, 1, 16, 8"), &k));
    assert_int_equal(k.cat.kind, ATEN_CAT_VECTORIZED);
    assert_int_equal(k.cat.per_vec, 8);
    assert_true(aten_kernel_parse(CAT("", "16u>, unsigned int, 1, 64, 64"), &k));
    assert_int_equal(k.cat.kind, ATEN_CAT_STRIDED);
    assert_int_equal(k.cat.batch, 64);
    assert_string_equal(k.dtype, "128-bit");
    char label[96];
    aten_kernel_label(&k, label, sizeof label);
    assert_string_equal(label, "at::native CatArrayBatchedCopy (128-bit)");
    /* Not torch 2.15.0's: 5 dims, 3-byte elements, another batch, a vector
     * that is not 16 bytes, a 64-bit index, a typed T. */
    assert_false(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 5, 128, 1"), &k));
    assert_false(aten_kernel_parse(CAT("_contig", "3u>, unsigned int, 2, 128, 1"), &k));
    assert_false(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 64, 1"), &k));
    assert_false(aten_kernel_parse(CAT("", "4u>, unsigned int, 2, 128, 1"), &k));
    assert_false(aten_kernel_parse(CAT("_vectorized", "4u>, unsigned int, 2, 128, 1, 16, 8"), &k));
    assert_false(aten_kernel_parse(CAT("_alignedK_contig", "4u>, unsigned int, 2, 128, 1, 32"), &k));
    assert_false(aten_kernel_parse(CAT("_contig", "4u>, unsigned long, 2, 128, 1"), &k));
    assert_false(aten_kernel_parse("void " NS "CatArrayBatchedCopy_contig<float, unsigned int, 2, 128, 1>(float*)", &k));
    assert_false(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128"), &k));
}

/* [5,7] and [3,7] floats along dim 0 (as measured: Dims 1 would do too). */
static void test_dim0(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128, 1"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 8, 7 }, (uint32_t[]){ 7, 1 }, 0, 7);
    add_input(&l, &k, 0x10000000, 0, 5, 35);
    add_input(&l, &k, 0x20000000, 5, 3, 21);
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nreads, 2);
    assert_int_equal(ops.reads[0].lo, 0x10000000);
    assert_int_equal(ops.reads[0].hi, 0x10000000 + 35 * 4);
    assert_int_equal(ops.reads[1].hi - ops.reads[1].lo, 21 * 4);
    /* One region: the whole [8,7] output, dense. */
    assert_int_equal(ops.nwrites, 1);
    assert_false(ops.may[0]);
    tf_range w = tf_view_footprint(&ops.writes[0]);
    assert_int_equal(w.lo, 0x40000000);
    assert_int_equal(w.hi, 0x40000000 + 56 * 4);
}

/* [5,7], [5,2], [5,7] along dim 1 of a [5,16]: one region of rows 16
 * apart, 16 wide; the second input alone is [5,2] at column 7. */
static void test_dim1(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "2u>, unsigned int, 2, 128, 1"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 16 }, (uint32_t[]){ 16, 1 }, 1, 1);
    add_input(&l, &k, 0x10000000, 0, 7, 35);
    add_input(&l, &k, 0x20000000, 7, 2, 10);
    add_input(&l, &k, 0x10000000, 9, 7, 35);
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nreads, 3);
    assert_int_equal(ops.nwrites, 1);
    assert_false(ops.may[0]);
    tf_range w = tf_view_footprint(&ops.writes[0]);
    assert_int_equal(w.hi - w.lo, 80 * 2);
    /* The second input alone: 2 of every 16. */
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 16 }, (uint32_t[]){ 16, 1 }, 1, 1);
    add_input(&l, &k, 0x20000000, 7, 2, 10);
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nwrites, 1);
    assert_false(ops.may[0]);
    assert_int_equal(ops.writes[0].addr, 0x40000000 + 7 * 2);
    assert_int_equal(ops.writes[0].elem, 2);
    assert_int_equal(ops.writes[0].rows, 2);
    assert_int_equal(ops.writes[0].cols, 5);
    assert_int_equal(ops.writes[0].ld, 16);
    /* Inputs out of order along dim 1: two regions, each exact. */
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 16 }, (uint32_t[]){ 16, 1 }, 1, 1);
    add_input(&l, &k, 0x20000000, 7, 2, 10);
    add_input(&l, &k, 0x10000000, 0, 7, 35);
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nwrites, 2);
    assert_int_equal(ops.writes[1].addr, 0x40000000);
    assert_int_equal(ops.writes[1].rows, 7);
}

/* The vectorized kernel: bf16 [3,8] and [3,16] along dim 1, in vectors of
 * 8: os [3,3] strides [3,1], trailing 1: regions of 8 and 16 elements a
 * row, 24 apart. */
static void test_vectorized(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_vectorized", "2u>, unsigned int, 2, 128, 1, 16, 8"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 3 }, (uint32_t[]){ 3, 1 }, 1, 1);
    add_input(&l, &k, 0x20000000, 8, 16, 48);
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.reads[0].hi - ops.reads[0].lo, 48 * 2);
    assert_int_equal(ops.nwrites, 1);
    assert_false(ops.may[0]);
    assert_int_equal(ops.writes[0].addr, 0x40000000 + 8 * 2);
    assert_int_equal(ops.writes[0].elem, 2);
    assert_int_equal(ops.writes[0].rows, 16);
    assert_int_equal(ops.writes[0].cols, 3);
    assert_int_equal(ops.writes[0].ld, 24);
    /* A partial vector (nElements not whole vectors; an offset that is
     * not on one) is refused. */
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 3 }, (uint32_t[]){ 3, 1 }, 1, 1);
    add_input(&l, &k, 0x20000000, 8, 16, 47);
    assert_false(decode(&k, &l, &ops));
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 3 }, (uint32_t[]){ 3, 1 }, 1, 1);
    add_input(&l, &k, 0x20000000, 4, 16, 48);
    assert_false(decode(&k, &l, &ops));
    /* offset x trailingSize past 32 bits: the kernel's product wraps
     * before it divides, so no place is trusted. */
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 3 }, (uint32_t[]){ 3, 1 }, 1, 0x20000000u);
    add_input(&l, &k, 0x20000000, 8, 16, 48);
    assert_false(decode(&k, &l, &ops));
}

/* The strided kernel: [7,5] and [7,3] transposed ([5,7] and [3,7] views,
 * strides 1 and 5 / 3) along dim 0. Reads: each transposed tensor's hull;
 * the write: the whole [8,7] output. */
static void test_strided(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("", "4u>, unsigned int, 2, 64, 64"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 8, 7 }, (uint32_t[]){ 7, 1 }, 0, 7);
    unsigned i0 = add_input(&l, &k, 0x10000000, 0, 5, 35);
    input_strided(&l, &k, i0, 2, (uint32_t[]){ 5, 7 }, (uint32_t[]){ 1, 5 });
    unsigned i1 = add_input(&l, &k, 0x20000000, 5, 3, 21);
    input_strided(&l, &k, i1, 2, (uint32_t[]){ 3, 7 }, (uint32_t[]){ 1, 3 });
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.reads[0].hi - ops.reads[0].lo, 35 * 4);
    assert_int_equal(ops.reads[1].hi - ops.reads[1].lo, 21 * 4);
    assert_int_equal(ops.nwrites, 1);
    assert_false(ops.may[0]);
    /* Every other column of a [5,12] (strides 12, 2): the hull, 5 rows. */
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 6 }, (uint32_t[]){ 6, 1 }, 1, 1);
    i0 = add_input(&l, &k, 0x10000000, 0, 6, 30);
    input_strided(&l, &k, i0, 2, (uint32_t[]){ 5, 6 }, (uint32_t[]){ 12, 2 });
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.reads[0].hi - ops.reads[0].lo, (4 * 12 + 5 * 2 + 1) * 4);
    /* Its sizes not making nElements: refused. */
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 6 }, (uint32_t[]){ 6, 1 }, 1, 1);
    i0 = add_input(&l, &k, 0x10000000, 0, 6, 30);
    input_strided(&l, &k, i0, 2, (uint32_t[]){ 4, 6 }, (uint32_t[]){ 12, 2 });
    assert_false(decode(&k, &l, &ops));
}

/* An output whose regions are no dense view (a column-major [5,16]: the
 * region is 7 columns of 5, fastest along dim 0, which the os says has
 * stride 1 while dim 1 is the fastest in the kernel's order): a may-write
 * of its footprint, never an exact write. */
static void test_not_dense(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128, 1"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 16 }, (uint32_t[]){ 1, 5 }, 1, 5);
    add_input(&l, &k, 0x10000000, 0, 7, 35);
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nwrites, 1);
    assert_true(ops.may[0]);
    tf_range w = tf_view_footprint(&ops.writes[0]);
    assert_int_equal(w.lo, 0x40000000);
    assert_int_equal(w.hi, 0x40000000 + 35 * 4);
    /* A region that skips rows (stride 2 along the fast dim): may-write. */
    launch_init(&l, &k, 2, (uint32_t[]){ 5, 7 }, (uint32_t[]){ 14, 2 }, 0, 14);
    add_input(&l, &k, 0x10000000, 0, 5, 35);
    assert_true(decode(&k, &l, &ops));
    assert_true(ops.may[0]);
}

/* Twelve inputs [3,2] along dim 1 of a [3,24], apart in memory: twelve
 * reads fitted into eight (joined nearest first, covering them all), one
 * region written. Out of order, twelve regions: one may-write. */
static void test_many(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128, 1"), &k));
    launch l;
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 24 }, (uint32_t[]){ 24, 1 }, 1, 1);
    for (unsigned i = 0; i < 12; i++)
        add_input(&l, &k, 0x10000000 + 0x1000 * (uint64_t)(11 - i) + (i % 3 ? 0 : 0x100000), 2 * i, 2, 6);
    aten_cat_ops ops;
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nreads, 12);
    assert_int_equal(ops.nwrites, 1);
    aten_cat_ops fit = ops;
    aten_cat_fit(&fit, TF_MAX_RANGES);
    assert_int_equal(fit.nreads, TF_MAX_RANGES);
    for (int i = 0; i < ops.nreads; i++) {
        bool in = false;
        for (int j = 0; j < fit.nreads; j++)
            in |= tf_range_contains(fit.reads[j], ops.reads[i]);
        assert_true(in);
    }
    assert_int_equal(fit.nwrites, 1);
    assert_false(fit.may[0]);
    launch_init(&l, &k, 2, (uint32_t[]){ 3, 24 }, (uint32_t[]){ 24, 1 }, 1, 1);
    for (unsigned i = 0; i < 12; i++)
        add_input(&l, &k, 0x10000000, 2 * (11 - i), 2, 6);
    assert_true(decode(&k, &l, &ops));
    assert_int_equal(ops.nwrites, 12);
    aten_cat_fit(&ops, TF_MAX_RANGES);
    assert_int_equal(ops.nwrites, 1);
    assert_true(ops.may[0]);
    tf_range w = tf_view_footprint(&ops.writes[0]);
    assert_int_equal(w.lo, 0x40000000);
    assert_int_equal(w.hi, 0x40000000 + 72 * 4);
}

/* Anything that does not validate stays unknown work. */
static void test_refused(void **state)
{
    (void)state;
    aten_kernel k;
    assert_true(aten_kernel_parse(CAT("_contig", "4u>, unsigned int, 2, 128, 1"), &k));
    static const uint32_t size[] = { 8, 7 }, stride[] = { 7, 1 };
    launch l;
    aten_cat_ops ops;
#define FRESH() (launch_init(&l, &k, 2, size, stride, 0, 7), add_input(&l, &k, 0x10000000, 0, 5, 35))
    FRESH();
    assert_true(decode(&k, &l, &ops));
    FRESH(), l.grid[1] = 0; /* no input */
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.grid[1] = 129; /* more than a batch */
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.grid[2] = 2;
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.block[1] = 2;
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.concat = 2; /* past Dims */
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.concat = -1;
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.out = 0;
    assert_false(decode(&k, &l, &ops));
    FRESH(), put32(l.os, ATEN_CAT_OS_SIZE + 4, 0); /* an empty dim */
    assert_false(decode(&k, &l, &ops));
    FRESH(), put32(l.meta, ATEN_CAT_NELEMENTS + 0, 34); /* not 5 x 7 */
    assert_false(decode(&k, &l, &ops));
    FRESH(), put32(l.meta, ATEN_CAT_NELEMENTS + 0, 0);
    assert_false(decode(&k, &l, &ops));
    FRESH(), memset(l.meta + ATEN_CAT_INPUT, 0, 8); /* a null input */
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.last = 0x7fffffff; /* the kernel's 32-bit offset would wrap */
    put32(l.meta, ATEN_CAT_OFFSET, 4);
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.sizes[ATEN_CAT_P_INPUTS] -= 8; /* another layout */
    assert_false(decode(&k, &l, &ops));
    FRESH(), l.sizes[ATEN_CAT_P_DIM_STRIDE] = 8;
    assert_false(decode(&k, &l, &ops));
#undef FRESH
    /* Not an iteration: the TensorIterator decoder leaves it alone. */
    aten_iter it;
    launch_init(&l, &k, 2, size, stride, 0, 7);
    add_input(&l, &k, 0x10000000, 0, 5, 35);
    assert_false(aten_decode(&k, l.p, l.sizes, ATEN_CAT_NPARAMS, &it));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),     cmocka_unit_test(test_dim0),      cmocka_unit_test(test_dim1),
        cmocka_unit_test(test_vectorized), cmocka_unit_test(test_strided),  cmocka_unit_test(test_not_dense),
        cmocka_unit_test(test_many),      cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
