/* The fold algebra, table-driven: the op table for every combination, scales,
 * sub-views and coverage. */
#include "fixture.h"

#include "algebra/algebra.h"

enum { REFUSE = -1 };

static void test_op_table(void **state)
{
    (void)state;
    /* x op, conjugate record, complex type -> op after folding (or REFUSE) */
    static const struct { tf_op x; bool conj, cplx; int want; } rows[] = {
        {TF_OP_N, false, false, TF_OP_T}, {TF_OP_T, false, false, TF_OP_N}, {TF_OP_C, false, false, TF_OP_N},
        {TF_OP_N, true, false, TF_OP_T},  {TF_OP_T, true, false, TF_OP_N},  {TF_OP_C, true, false, TF_OP_N},
        {TF_OP_N, false, true, TF_OP_T},  {TF_OP_T, false, true, TF_OP_N},  {TF_OP_C, false, true, REFUSE},
        {TF_OP_N, true, true, TF_OP_C},   {TF_OP_T, true, true, REFUSE},    {TF_OP_C, true, true, TF_OP_N},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tf_op out = TF_OP_N;
        bool ok = tf_fold_op(rows[i].x, rows[i].conj, rows[i].cplx, &out);
        assert_int_equal(ok, rows[i].want != REFUSE);
        if (ok)
            assert_int_equal(out, rows[i].want);
    }
}

static void test_scales(void **state)
{
    (void)state;
    /* exact: only 1 folds; pow2 (opt-in): also +-2^k */
    static const struct { double re, im; bool host, exact, pow2; } rows[] = {
        {1, 0, true, true, true},     {2, 0, true, false, true},    {0.5, 0, true, false, true},
        {1024, 0, true, false, true}, {-2, 0, true, false, true},   {-1, 0, true, false, true},
        {0.3, 0, true, false, false}, {3, 0, true, false, false},   {0, 0, true, false, false},
        {1, 1, true, false, false},   {2, 0, false, false, false},  {1, 0, false, false, false},
        {1.0 / 0.0, 0, true, false, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tf_scale s = {rows[i].re, rows[i].im, rows[i].host};
        assert_int_equal(tf_scale_foldable(s, TF_SCALES_EXACT), rows[i].exact);
        assert_int_equal(tf_scale_foldable(s, TF_SCALES_POW2), rows[i].pow2);
    }
}

static void test_subview(void **state)
{
    (void)state;
    tf_view parent = mat(0x1000, 4, 8, 6, 10);
    static const struct { int64_t off, rows, cols, ld; uint32_t elem; bool want; int64_t i0, j0; } rows[] = {
        {0, 8, 6, 10, 4, true, 0, 0},        /* the whole view */
        {3 * 10 + 2, 4, 2, 10, 4, true, 2, 3}, /* interior block */
        {3 * 10 + 2, 7, 2, 10, 4, false, 0, 0}, /* runs past the last row */
        {3 * 10 + 2, 4, 4, 10, 4, false, 0, 0}, /* runs past the last column */
        {8, 2, 2, 10, 4, false, 0, 0},       /* starts in the ld gap */
        {0, 8, 6, 8, 4, false, 0, 0},        /* another leading dimension */
        {0, 8, 6, 10, 2, false, 0, 0},       /* another element size */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        tf_view sub = mat(0x1000 + 4 * (uint64_t)rows[i].off, rows[i].elem, rows[i].rows, rows[i].cols, rows[i].ld);
        tf_offset at;
        assert_int_equal(tf_view_subview(&parent, &sub, &at), rows[i].want);
        if (rows[i].want) {
            assert_int_equal(at.i0, rows[i].i0);
            assert_int_equal(at.j0, rows[i].j0);
        }
    }
    tf_view unaligned = mat(0x1002, 4, 2, 2, 10);
    tf_offset at;
    assert_false(tf_view_subview(&parent, &unaligned, &at));
}

static void test_batched_subview(void **state)
{
    (void)state;
    tf_view parent = mat(0x1000, 4, 4, 3, 4);
    parent.batch = 5;
    parent.stride = 16;
    tf_view sub = mat(0x1000 + 4 * (2 * 16 + 4), 4, 4, 2, 4);
    sub.batch = 3;
    sub.stride = 16;
    tf_offset at;
    assert_true(tf_view_subview(&parent, &sub, &at));
    assert_int_equal(at.b0, 2);
    assert_int_equal(at.j0, 1);
    sub.batch = 4; /* batches 2..5: one past the end */
    assert_false(tf_view_subview(&parent, &sub, &at));
    sub.batch = 2;
    sub.stride = 32; /* every other batch: not the same grid */
    assert_false(tf_view_subview(&parent, &sub, &at));
}

/* Batches stacked inside one unbatched matrix, as a strided-batched GEMM
 * slicing a transposed buffer into column (and row) blocks reads them. */
static void test_stacked_batches(void **state)
{
    (void)state;
    tf_transpose_desc p = transpose_desc(0x100000, 6, 0x200000, 8, 8, 6, 4); /* dst 8x6 ld 8, src 6x8 ld 6 */
    tf_view a = mat(0x200000, 4, 2, 2, 8);
    a.batch = 3;
    a.stride = 2 * 8 + 2; /* each batch two rows down and two columns right */
    tf_gemm g = gemm_desc(a, TF_OP_N, mat(0x300000, 4, 2, 5, 2), TF_OP_N, mat(0x400000, 4, 2, 5, 2), 2, 5, 2);
    fold_verdict v;
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.addr, 0x100000);
    assert_int_equal(v.rw.stride, 2 + 2 * 6);
    a.batch = 4; /* the fourth batch would leave the matrix */
    g.in[0].v = a;
    assert_false(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.why.key, TF_R_subview);
    /* pure column blocks: four 8x1 slices of the 8x6 matrix, one column apart */
    a = mat(0x200000 + 4 * 8, 4, 8, 1, 8);
    a.batch = 4;
    a.stride = 8;
    g.in[0].v = a;
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.addr, 0x100000 + 4 * 1);
    assert_int_equal(v.rw.stride, 1);
}

static void test_covers(void **state)
{
    (void)state;
    tf_view d = mat(0x2000, 4, 8, 6, 10);
    tf_view all = tf_view_dense(0x2000, 4 * 60);
    tf_view short_ = tf_view_dense(0x2000, 4 * 57);
    tf_view same = d;
    tf_view block = mat(0x2000, 4, 8, 5, 10);
    assert_true(tf_view_covers(&all, &d));
    assert_false(tf_view_covers(&short_, &d));
    assert_true(tf_view_covers(&same, &d));
    assert_false(tf_view_covers(&block, &d));
    tf_range r = tf_view_footprint(&d);
    assert_int_equal(r.hi - r.lo, 4 * (5 * 10 + 8));
}

static void test_fold_operand_rewrites(void **state)
{
    (void)state;
    /* dst 8x6 ld 10 = transpose of src 6x8 ld 7; A reads the block at (2,3). */
    tf_transpose_desc p = transpose_desc(0x100000, 7, 0x200000, 10, 8, 6, 4);
    tf_view a = mat(0x200000 + 4 * (3 * 10 + 2), 4, 4, 2, 10);
    tf_gemm g = gemm_desc(a, TF_OP_N, mat(0x300000, 4, 2, 5, 2), TF_OP_N, mat(0x400000, 4, 4, 5, 4), 4, 5, 2);
    fold_verdict v;
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.addr, 0x100000 + 4 * (3 + 2 * 7));
    assert_int_equal(v.rw.ld, 7);
    assert_int_equal(v.rw.op, TF_OP_T);
    assert_true(v.alpha == 1.0);
}

static void test_fold_operand_refusals(void **state)
{
    (void)state;
    tf_transpose_desc p = transpose_desc(0x100000, 6, 0x200000, 8, 8, 6, 4);
    tf_view a = mat(0x200000, 4, 8, 6, 8);
    tf_gemm g = gemm_desc(a, TF_OP_N, mat(0x300000, 4, 6, 5, 6), TF_OP_N, mat(0x400000, 4, 8, 5, 8), 8, 5, 6);
    fold_verdict v;
    /* case i mutates one thing; the refusal names it by this key */
    static const tf_reason keys[] = {TF_R_ld, TF_R_stream, TF_R_elem_size, TF_R_scale_alpha_device, TF_R_conj_no_op,
                                     TF_R_fp8_tn, TF_R_conj_real_gemm};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        tf_transpose_desc pp = p;
        tf_gemm gg = g;
        switch (i) {
        case 0: gg.in[0].v.ld = 9; break;
        case 1: gg.acc.stream = 8; break;
        case 2: gg.in[0].v.elem = 2; break;
        case 3: pp.alpha.re = 2; gg.alpha_host = false; break;
        case 4: pp.complex_type = gg.complex_type = true; pp.conj = true; gg.in[0].op = TF_OP_T; break;
        case 5: gg.in[0].refuse = TF_R_fp8_tn; break;
        case 6: pp.complex_type = pp.conj = true; break; /* conj read by a real GEMM */
        }
        assert_false(fold_operand(&pp, &gg.in[0], &gg, &v));
        assert_int_equal(v.why.key, keys[i]);
    }
}

static void test_broadcast_batch(void **state)
{
    (void)state;
    tf_transpose_desc p = transpose_desc(0x100000, 6, 0x200000, 8, 8, 6, 4);
    tf_view a = mat(0x200000, 4, 8, 6, 8);
    a.batch = 4; /* stride 0: the same matrix for every batch */
    tf_gemm g = gemm_desc(a, TF_OP_N, mat(0x300000, 4, 6, 5, 6), TF_OP_N, mat(0x400000, 4, 8, 5, 8), 8, 5, 6);
    fold_verdict v;
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.stride, 0);
}

/* Heads split from one fused projection (nanoGPT's q @ k.transpose(-2, -1),
 * B 2, T 16, 3 heads of 8): the transpose is k[b] (C 24 x T 16 within rows
 * of 3C = 72) into kt[b] (T 16 x C 24, ld 16, batch stride 384); the GEMM
 * reads kt as 6 matrices T x 8 at stride 128, two levels in the source. */
static tf_transpose_desc heads_transpose(void)
{
    tf_transpose_desc p = transpose_desc(0x100000, 72, 0x200000, 16, 16, 24, 4);
    p.src.batch = p.dst.batch = 2;
    p.src.stride = 16 * 72;
    p.dst.stride = 16 * 24;
    return p;
}

static tf_gemm heads_gemm(uint64_t at, int64_t batch)
{
    tf_view a = mat(at, 4, 16, 8, 16);
    a.batch = batch;
    a.stride = 16 * 8;
    tf_gemm g = gemm_desc(a, TF_OP_N, mat(0x300000, 4, 8, 16, 8), TF_OP_N, mat(0x400000, 4, 16, 16, 16), 16, 16, 8);
    g.splittable = true;
    return g;
}

static void test_two_level_batches(void **state)
{
    (void)state;
    tf_transpose_desc p = heads_transpose();
    tf_gemm g = heads_gemm(0x200000, 6);
    fold_verdict v;
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.groups, 2);            /* one call per sequence */
    assert_int_equal(v.rw.group_stride, 16 * 72); /* the next sequence's k */
    assert_int_equal(v.rw.addr, 0x100000);
    assert_int_equal(v.rw.ld, 72);
    assert_int_equal(v.rw.stride, 8);             /* the next head: 8 columns on */
    assert_int_equal(v.rw.op, TF_OP_T);

    /* The heads of the second sequence alone: one call, no split. */
    g = heads_gemm(0x200000 + 4 * 384, 3);
    assert_true(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.rw.groups, 1);
    assert_int_equal(v.rw.addr, 0x100000 + 4 * 16 * 72);
    assert_int_equal(v.rw.stride, 8);

    /* Refused: a call that cannot be split, one that reads its output
     * (beta not 0), batches that do not fill whole sequences, and calls
     * running past the transpose's last batch. */
    g = heads_gemm(0x200000, 6);
    g.splittable = false;
    assert_false(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.why.key, TF_R_batch_stride);
    g = heads_gemm(0x200000, 6);
    tf_access_read(&g.acc, (tf_range){ 0x400000, 0x400400 });
    assert_false(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.why.key, TF_R_batch_stride);
    g = heads_gemm(0x200000, 5);
    assert_false(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.why.key, TF_R_batch_stride);
    g = heads_gemm(0x200000 + 4 * 384, 6);
    assert_false(fold_operand(&p, &g.in[0], &g, &v));
    assert_int_equal(v.why.key, TF_R_subview);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_op_table),        cmocka_unit_test(test_scales),
        cmocka_unit_test(test_subview),         cmocka_unit_test(test_batched_subview),
        cmocka_unit_test(test_covers),          cmocka_unit_test(test_fold_operand_rewrites),
        cmocka_unit_test(test_fold_operand_refusals), cmocka_unit_test(test_broadcast_batch),
        cmocka_unit_test(test_stacked_batches),  cmocka_unit_test(test_two_level_batches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
