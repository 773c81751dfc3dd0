/* The fold path's shortcuts: what a producer's write covers is dropped from
 * the list made before it (however many records), a GEMM's second pass
 * reuses what its first found, and a log-mode producer that ran needs no
 * end call. Each must leave the outcome exactly as the full searches did. */
#include "fixture.h"

#define SRC DEV_BASE
#define BIG (DEV_BASE + 0x100000) /* a 16x16 f32 matrix, ld 16 */
#define SRC2 (DEV_BASE + 0x200000)
#define OUT (DEV_BASE + 0x300000)
#define COL (16 * 4)              /* bytes per column of BIG */

/* More covered records than the list holds, and one the write only partly
 * covers: every covered one is dropped (never run), the other runs first. */
static void test_producer_drops_every_covered_record(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    enum { N = 6 };
    fake_replay r[N] = {{0}}, partly = {0}, big = {0};
    for (int i = 0; i < N; i++) {
        tf_transpose_desc d = transpose_desc(SRC + i * 0x1000, 2, BIG + 2 * i * COL, 16, 16, 2, 4);
        assert_true(tf_transpose_begin(f->e, &d, replay_of(&r[i]), NO_WHY));
    }
    /* columns 15 and 16: the second lies past BIG */
    tf_transpose_desc d = transpose_desc(SRC + 0x10000, 2, BIG + 15 * COL, 16, 16, 2, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&partly), NO_WHY));
    assert_int_equal(tf_engine_pending(f->e), N + 1);

    d = transpose_desc(SRC2, 16, BIG, 16, 16, 16, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&big), NO_WHY));
    for (int i = 0; i < N; i++) {
        assert_int_equal(r[i].runs, 0);
        assert_int_equal(r[i].releases, 1);
    }
    assert_int_equal(partly.runs, 1);
    assert_int_equal(tf_engine_pending(f->e), 1);
    assert_int_equal(log_count(f, "\"event\":\"drop\"", "\"key\":\"dst_overwritten\""), N);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"", "\"key\":\"dst_partly_overwritten\""), 1);
    fixture_free(f);
}

/* Both operands read the one record: both fold onto it. */
static void test_both_operands_fold_onto_one_record(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    tf_transpose_desc d = transpose_desc(SRC, 6, BIG, 4, 4, 6, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    tf_gemm g = gemm_desc(mat(BIG, 4, 4, 6, 4), TF_OP_N, mat(BIG, 4, 4, 6, 4), TF_OP_T, mat(OUT, 4, 4, 4, 4), 4, 4, 6);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.any);
    for (int i = 0; i < 2; i++) {
        assert_true(plan.in[i].folded);
        assert_int_equal(plan.in[i].addr, SRC);
        assert_int_equal(plan.in[i].ld, 6);
        assert_int_equal(plan.in[i].record, plan.in[0].record);
    }
    assert_int_equal(plan.in[0].op, TF_OP_T);
    assert_int_equal(plan.in[1].op, TF_OP_N);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(r.runs, 0);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", NULL), 2);
    fixture_free(f);
}

/* A GEMM's end drops what its output covers even when begin found nothing
 * there: another thread may defer a transpose into it meanwhile. */
static void test_gemm_end_sees_records_made_meanwhile(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r1 = {0}, r2 = {0};
    tf_transpose_desc d = transpose_desc(SRC, 6, BIG, 4, 4, 6, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&r1), NO_WHY));
    tf_gemm g = gemm_desc(mat(BIG, 4, 4, 6, 4), TF_OP_N, mat(SRC2, 4, 6, 4, 6), TF_OP_N, mat(OUT, 4, 4, 4, 4), 4, 4, 6);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.any);
    /* meanwhile: a transpose into the GEMM's output */
    tf_transpose_desc d2 = transpose_desc(SRC2 + 0x1000, 4, OUT, 4, 4, 4, 4);
    assert_true(tf_transpose_begin(f->e, &d2, replay_of(&r2), NO_WHY));
    assert_int_equal(tf_engine_pending(f->e), 2);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(tf_engine_pending(f->e), 1);
    assert_int_equal(r2.runs, 0);
    assert_int_equal(r2.releases, 1);
    assert_int_equal(log_count(f, "\"event\":\"drop\"", "\"key\":\"dst_overwritten\""), 1);
    fixture_free(f);
}

/* Searches are skipped outside the pending records' bounds: those must
 * hold every record, the first ones too, and shrink to one when it is
 * the only record left. */
static void test_bounds_hold_every_record(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r1 = {0}, r2 = {0}, r3 = {0};
    tf_transpose_desc d1 = transpose_desc(SRC, 6, BIG, 4, 4, 6, 4);
    tf_transpose_desc d2 = transpose_desc(SRC2, 6, OUT, 4, 4, 6, 4);
    assert_true(tf_transpose_begin(f->e, &d1, replay_of(&r1), NO_WHY));
    assert_true(tf_transpose_begin(f->e, &d2, replay_of(&r2), NO_WHY));
    tf_access a = {.api = "cudaMemcpy"};
    tf_access_read(&a, (tf_range){BIG, BIG + 4}); /* the first record's destination */
    tf_access_begin(f->e, &a);
    assert_int_equal(r1.runs, 1);
    assert_int_equal(r2.runs, 0);
    /* the second alone now; a third far below the others */
    tf_transpose_desc d3 = transpose_desc(SRC + 0x10000, 6, SRC + 0x20000, 4, 4, 6, 4);
    assert_true(tf_transpose_begin(f->e, &d3, replay_of(&r3), NO_WHY));
    tf_access b = {.api = "cudaMemcpy"};
    tf_access_write(&b, mat(SRC2, 4, 1, 1, 1)); /* overwrites the second's source */
    tf_access_begin(f->e, &b);
    assert_int_equal(r2.runs, 1);
    tf_access c = {.api = "cudaMemcpy"};
    tf_access_read(&c, (tf_range){SRC + 0x20000, SRC + 0x20004});
    tf_access_begin(f->e, &c);
    assert_int_equal(r3.runs, 1);
    assert_int_equal(tf_engine_pending(f->e), 0);
    fixture_free(f);
}

/* Log mode: a producer that ran needs no end (its record stays); one that
 * failed does, and the end forgets its record. In fold mode a producer
 * the engine let run always needs its end. */
static void test_end_needed(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_LOG, TF_POLICY_STRICT);
    tf_transpose_desc d = transpose_desc(SRC, 6, BIG, 4, 4, 6, 4);
    assert_false(tf_transpose_begin(f->e, &d, (tf_replay){0}, NO_WHY));
    assert_false(tf_transpose_end_needed(true));
    assert_int_equal(tf_engine_pending(f->e), 1);
    tf_transpose_desc d2 = transpose_desc(SRC2, 6, OUT, 4, 4, 6, 4);
    assert_false(tf_transpose_begin(f->e, &d2, (tf_replay){0}, NO_WHY));
    assert_int_equal(tf_engine_pending(f->e), 2);
    assert_true(tf_transpose_end_needed(false));
    tf_transpose_end(f->e, &d2, false);
    assert_int_equal(tf_engine_pending(f->e), 1);
    fixture_free(f);

    f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    d.alpha.re = 0.3; /* refused: it runs, and its end applies its effects */
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    assert_true(tf_transpose_end_needed(true));
    tf_transpose_end(f->e, &d, true);
    fixture_free(f);
}

/* Two batch levels (heads split from one projection, as test_algebra's
 * heads_transpose): the plan splits the call into one per sequence; a
 * second operand that would split another way makes its record run. */
static tf_transpose_desc heads(uint64_t src, uint64_t dst, int64_t seqs)
{
    tf_transpose_desc p = transpose_desc(src, 72, dst, 16, 16, 24, 4);
    p.src.batch = p.dst.batch = seqs;
    p.src.stride = 16 * 72;
    p.dst.stride = 16 * 24;
    return p;
}

static tf_view heads_view(uint64_t at, int64_t batch, int64_t per)
{
    tf_view v = mat(at, 4, 16, 24 / per, 16);
    v.batch = batch;
    v.stride = 16 * 24 / per;
    return v;
}

static void test_two_level_fold_splits_the_call(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay ra = {0}, rb = {0};
    tf_transpose_desc a = heads(SRC, BIG, 2), b = heads(SRC2, OUT, 3);
    assert_true(tf_transpose_begin(f->e, &a, replay_of(&ra), NO_WHY));
    assert_true(tf_transpose_begin(f->e, &b, replay_of(&rb), NO_WHY));
    /* A reads BIG as 6 matrices, 3 a sequence (2 calls); B reads OUT as 6,
     * 2 a sequence (3 calls)... */
    tf_gemm g = gemm_desc(heads_view(BIG, 6, 3), TF_OP_N, heads_view(OUT, 6, 2), TF_OP_T,
                          mat(DEV_BASE + 0x400000, 4, 16, 16, 16), 16, 16, 8);
    g.splittable = true;
    g.acc.writes[0].batch = 6;
    g.acc.writes[0].stride = 256;
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.in[0].folded);
    assert_int_equal(plan.groups, 2);
    assert_int_equal(plan.in[0].groups, 2);
    assert_int_equal(plan.in[0].group_stride, 16 * 72);
    /* ...one call cannot be cut both ways: B's record runs */
    assert_false(plan.in[1].folded);
    assert_int_equal(rb.runs, 1);
    assert_int_equal(ra.runs, 0);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", "\"groups\":2"), 1);
    assert_int_equal(log_count(f, "\"event\":\"refuse\"", "batch_stride"), 1);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_level_fold_splits_the_call),
        cmocka_unit_test(test_producer_drops_every_covered_record),
        cmocka_unit_test(test_both_operands_fold_onto_one_record),
        cmocka_unit_test(test_gemm_end_sees_records_made_meanwhile),
        cmocka_unit_test(test_bounds_hold_every_record),
        cmocka_unit_test(test_end_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
