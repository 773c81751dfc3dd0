/* Learning: the proof on measured bytes (learn_prove.c) and the state
 * machine from an unknown launch to a trusted producer (learn.c). */
#include <stdio.h>

#include "fixture.h"
#include "learn/learn.h"

enum { R = 6, C = 4, N = R * C };

/* Two allocations: the source (floats s[r*C + c], row-major R x C) and
 * the output; the measurement as the preload would take it. */
typedef struct world {
    float src[N + 8];
    unsigned char before[2][(N + 8) * 4], after_a[2][(N + 8) * 4], after_b[2][(N + 8) * 4];
    tf_range reach[2];
    tf_learn_obs obs;
} world;

#define SRC_BASE 0x20000000ull
#define OUT_BASE 0x30000000ull
#define BYTES ((N + 8) * 4)

/* out[c*R + r] = src[r*C + c] for r < rows_written, over both sentinels. */
static void measure_ld(world *w, int rows_written, bool touch_src, bool copy_not_transpose, int ld)
{
    for (int i = 0; i < N + 8; i++)
        w->src[i] = (float)(i * 3 % 17) - 8.0f;
    w->reach[0] = (tf_range){ SRC_BASE, SRC_BASE + BYTES };
    w->reach[1] = (tf_range){ OUT_BASE, OUT_BASE + BYTES };
    memcpy(w->before[0], w->src, BYTES);
    memset(w->before[1], 0x11, BYTES);
    memset(w->after_a[1], 0xA5, BYTES);
    memset(w->after_b[1], 0x5A, BYTES);
    for (int r = 0; r < rows_written; r++)
        for (int c = 0; c < C; c++) {
            float v = copy_not_transpose ? w->src[c * R + r] : w->src[r * ld + c];
            memcpy(w->after_a[1] + (c * R + r) * 4, &v, 4);
            memcpy(w->after_b[1] + (c * R + r) * 4, &v, 4);
        }
    memcpy(w->after_a[0], w->src, BYTES);
    memcpy(w->after_b[0], w->src, BYTES);
    if (touch_src)
        w->after_b[0][0] ^= 1;
    for (int k = 0; k < 2; k++) {
        w->obs.before[k] = w->before[k];
        w->obs.after_a[k] = w->after_a[k];
        w->obs.after_b[k] = w->after_b[k];
    }
    w->obs.sa = 0xA5, w->obs.sb = 0x5A;
    w->obs.status = 0;
}

static void measure(world *w, int rows_written, bool touch_src, bool copy_not_transpose)
{
    measure_ld(w, rows_written, touch_src, copy_not_transpose, C);
}

static int64_t scalar_ld = 99; /* a scalar of the launch that could be the source's ld */

static tf_reason prove(world *w, tf_view *src)
{
    uint64_t ptrs[2] = { OUT_BASE, SRC_BASE };
    int64_t lds[1] = { scalar_ld };
    tf_proof_in in = { w->reach, 2, 1, &w->obs, { OUT_BASE, 4, R, C, R, 1, R * C }, ptrs, 2, lds, 1 };
    int t = -1;
    return tf_learn_prove(&in, src, &t);
}

static void test_prove_transpose(void **state)
{
    (void)state;
    world w;
    tf_view src;
    measure(&w, R, false, false);
    assert_int_equal(prove(&w, &src), TF_R_NONE);
    assert_int_equal(src.addr, SRC_BASE);
    assert_int_equal(src.rows, C);
    assert_int_equal(src.cols, R);
    assert_int_equal(src.ld, C);
}

/* A padded source: its ld comes from the launch's scalars. */
static void test_prove_padded(void **state)
{
    (void)state;
    world w;
    tf_view src;
    measure_ld(&w, R, false, false, C + 1);
    scalar_ld = C + 1;
    assert_int_equal(prove(&w, &src), TF_R_NONE);
    assert_int_equal(src.ld, C + 1);
    scalar_ld = 99;
    assert_int_equal(prove(&w, &src), TF_R_learn_not_transpose); /* without the scalar, no ld explains it */
}

static void test_prove_refusals(void **state)
{
    (void)state;
    world w;
    tf_view src;
    measure(&w, R / 2, false, false);
    assert_int_equal(prove(&w, &src), TF_R_learn_leaves_unwritten);
    measure(&w, R, true, false);
    assert_int_equal(prove(&w, &src), TF_R_learn_second_buffer);
    measure(&w, R, false, true);
    assert_int_equal(prove(&w, &src), TF_R_learn_not_transpose);
    measure(&w, R, false, false);
    w.after_a[1][N * 4] = w.after_b[1][N * 4] = 0x00; /* a byte beyond the view written */
    assert_int_equal(prove(&w, &src), TF_R_learn_writes_outside);
    measure(&w, R, false, false);
    w.after_b[1][0] ^= 0x80; /* the two runs disagree */
    assert_int_equal(prove(&w, &src), TF_R_learn_reads_output);
}

/* Packed parameters of a launch: out, in, rows, cols. */
typedef struct params { uint64_t out, in; int32_t rows, cols; } params;

static tf_learn_launch launch_of(const params *p)
{
    return (tf_learn_launch){ .fn = 0x1234, .name = "k", .grid = { 1, 1, 1 }, .block = { 32, 1, 1 },
                              .params = (const unsigned char *)p, .len = sizeof *p };
}

static tf_gemm gemm_reading(uint64_t addr)
{
    tf_gemm g = { .acc = { .api = "cublasSgemm" }, .dtype = "f32", .m = R, .n = 3, .k = C, .nin = 1 };
    g.in[0] = (tf_operand){ .role = "A", .v = { addr, 4, R, C, R, 1, R * C }, .op = TF_OP_N };
    return g;
}

static int notes_asked;
static void count_note_recent(void) { notes_asked++; }
/* What the preload's learn_recent_unwatched would say: functions were
 * launched since the recent ones were last noted. */
static bool launched_since = true;
static bool recent_unnoted(void) { return launched_since; }

static fixture *learning(int k, int max_candidates)
{
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    tf_learn_knobs knobs = { k, 1 << 20, max_candidates, 16, count_note_recent, recent_unnoted };
    launched_since = true;
    tf_learn_setup(f->e, &knobs);
    tf_alloc(f->e, SRC_BASE, BYTES, TF_MEM_DEVICE);
    tf_alloc(f->e, OUT_BASE, BYTES, TF_MEM_DEVICE);
    return f;
}

static void test_candidate_to_trusted(void **state)
{
    (void)state;
    fixture *f = learning(2, 8);
    params p = { OUT_BASE, SRC_BASE, R, C };
    tf_learn_launch l = launch_of(&p);
    tf_learn_plan plan;
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_RUN);
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_plan gp;
    tf_gemm_begin(f->e, &g, &gp);
    tf_gemm_end(f->e, &g, &gp, true);
    world w;
    measure(&w, R, false, false);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_MEASURE);
        assert_int_equal(plan.nreach, 2);
        assert_int_equal(plan.reach[plan.out].lo, OUT_BASE);
        /* the plan lists reach in pointer order: out first */
        tf_learn_obs o = w.obs;
        o.before[0] = w.before[1], o.after_a[0] = w.after_a[1], o.after_b[0] = w.after_b[1];
        o.before[1] = w.before[0], o.after_a[1] = w.after_a[0], o.after_b[1] = w.after_b[0];
        tf_learn_measured(f->e, &l, &plan, &o);
    }
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_PRODUCE);
    params q = { OUT_BASE + 0, SRC_BASE, R, C };
    tf_learn_launch l2 = launch_of(&q);
    tf_transpose_desc d;
    assert_true(tf_learn_describe(f->e, &l2, &d));
    assert_int_equal(d.dst.addr, OUT_BASE);
    assert_int_equal(d.src.addr, SRC_BASE);
    assert_int_equal(d.src.ld, C);
    params other = { OUT_BASE, SRC_BASE, R, C + 1 }; /* another shape: another signature */
    tf_learn_launch l3 = launch_of(&other);
    assert_false(tf_learn_describe(f->e, &l3, &d));
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "\"what\":\"trusted\""));
    /* a producer like any other; a wrong fold onto it found by verify
     * distrusts the signature for good */
    fake_replay fr = { 0 };
    assert_true(tf_learn_describe(f->e, &l2, &d));
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&fr), NO_WHY));
    tf_learn_distrust(f->e, 1, TF_R_learn_verify_mismatch);
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_RUN);
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "\"what\":\"rejected\",\"name\""));
    assert_non_null(strstr(f->logbuf, "\"key\":\"learn_verify_mismatch\",\"reason\":\"verify: a GEMM folded"));
    fixture_free(f);
}

/* A GEMM reading memory no noted launch pointed into asks for the recent
 * functions to be noted; one whose writer was noted does not. */
static void test_unknown_writer_asks_for_notes(void **state)
{
    (void)state;
    fixture *f = learning(2, 8);
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_plan gp;
    notes_asked = 0;
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(notes_asked, 1);
    params p = { OUT_BASE, SRC_BASE, R, C };
    tf_learn_launch l = launch_of(&p);
    tf_learn_plan plan;
    tf_learn_launch_begin(f->e, &l, &plan);
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(notes_asked, 1);
    fixture_free(f);
}

/* With no noted launch unjudged and nothing launched since the recent
 * functions were noted, a GEMM has nothing to show learning: note_recent
 * is not asked. A noted launch still unjudged is made a candidate whatever
 * was launched since. */
static void test_nothing_to_learn(void **state)
{
    (void)state;
    fixture *f = learning(2, 8);
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_plan gp;
    notes_asked = 0;
    launched_since = false;
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(notes_asked, 0);
    launched_since = true;
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(notes_asked, 1);
    params p = { OUT_BASE, SRC_BASE, R, C };
    tf_learn_launch l = launch_of(&p);
    tf_learn_plan plan;
    tf_learn_launch_begin(f->e, &l, &plan);
    launched_since = false;
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_MEASURE);
    fixture_free(f);
}

/* tf_learn_open follows the ring and every change of a signature's state:
 * open while a noted launch is unjudged, closed once it is a candidate,
 * open again when an idle candidate is evicted back to unjudged. */
static void test_open_follows_states(void **state)
{
    (void)state;
    fixture *f = learning(2, 1);
    assert_false(tf_learn_open(f->e));
    params a = { OUT_BASE, SRC_BASE, R, C };
    tf_learn_launch la = launch_of(&a);
    tf_learn_plan plan;
    tf_learn_launch_begin(f->e, &la, &plan);
    assert_true(tf_learn_open(f->e));
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_plan gp;
    tf_gemm_begin(f->e, &g, &gp);
    assert_false(tf_learn_open(f->e));
    params other = { OUT_BASE, SRC_BASE, 1, 1 }; /* unjudged until the ring forgets it */
    tf_learn_launch lo = launch_of(&other);
    for (int i = 0; i < 70; i++)
        tf_learn_launch_begin(f->e, &lo, &plan);
    assert_true(tf_learn_open(f->e));
    params b = { SRC_BASE, OUT_BASE, C, R }; /* a second candidate evicts the first */
    tf_learn_launch lb = launch_of(&b);
    tf_learn_launch_begin(f->e, &lb, &plan);
    tf_gemm g2 = gemm_reading(SRC_BASE);
    tf_gemm_begin(f->e, &g2, &gp);
    for (int i = 0; i < 16; i++) /* the ring holds only the evicted one's launches */
        tf_learn_launch_begin(f->e, &la, &plan);
    assert_true(tf_learn_open(f->e));
    fixture_free(f);
}

static void test_rejected_for_good(void **state)
{
    (void)state;
    fixture *f = learning(2, 8);
    params p = { OUT_BASE, SRC_BASE, R, C };
    tf_learn_launch l = launch_of(&p);
    tf_learn_plan plan;
    tf_learn_launch_begin(f->e, &l, &plan);
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_plan gp;
    tf_gemm_begin(f->e, &g, &gp);
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_MEASURE);
    tf_learn_obs o = { .status = 1 };
    tf_learn_measured(f->e, &l, &plan, &o);
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_RUN);
    tf_gemm_begin(f->e, &g, &gp); /* read again: no second chance */
    assert_int_equal(tf_learn_launch_begin(f->e, &l, &plan), TF_LEARN_RUN);
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "the measuring launches failed"));
    fixture_free(f);
}

static void test_candidate_cap(void **state)
{
    (void)state;
    fixture *f = learning(2, 1);
    params a = { OUT_BASE, SRC_BASE, R, C }, b = { SRC_BASE, OUT_BASE, C, R };
    tf_learn_launch la = launch_of(&a), lb = launch_of(&b);
    tf_learn_plan plan;
    tf_plan gp;
    tf_learn_launch_begin(f->e, &la, &plan);
    tf_gemm g = gemm_reading(OUT_BASE);
    tf_gemm_begin(f->e, &g, &gp);
    tf_learn_launch_begin(f->e, &lb, &plan);
    tf_gemm g2 = gemm_reading(SRC_BASE);
    tf_gemm_begin(f->e, &g2, &gp);
    assert_int_equal(tf_learn_launch_begin(f->e, &lb, &plan), TF_LEARN_RUN);
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "candidate cap reached (TRANSFOLD"));
    /* once the first candidate has been idle long enough, it makes room */
    for (int i = 0; i < 70; i++) {
        params other = { OUT_BASE, SRC_BASE, 1, 1 };
        tf_learn_launch lo = launch_of(&other);
        tf_learn_launch_begin(f->e, &lo, &plan);
    }
    tf_learn_launch_begin(f->e, &lb, &plan);
    tf_gemm_begin(f->e, &g2, &gp);
    assert_int_equal(tf_learn_launch_begin(f->e, &lb, &plan), TF_LEARN_MEASURE);
    assert_int_equal(tf_learn_launch_begin(f->e, &la, &plan), TF_LEARN_RUN);
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "\"what\":\"evicted\""));
    fixture_free(f);
}

/* Bounded memory: signatures beyond the table's size are not remembered. */
static void test_signature_cap(void **state)
{
    (void)state;
    fixture *f = learning(2, 8);
    tf_learn_plan plan;
    for (int i = 0; i < 40; i++) {
        params p = { OUT_BASE, SRC_BASE, R, i };
        tf_learn_launch l = launch_of(&p);
        tf_learn_launch_begin(f->e, &l, &plan);
    }
    fflush(f->log);
    assert_non_null(strstr(f->logbuf, "signature table full"));
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prove_transpose),   cmocka_unit_test(test_prove_padded),
        cmocka_unit_test(test_prove_refusals),
        cmocka_unit_test(test_candidate_to_trusted), cmocka_unit_test(test_unknown_writer_asks_for_notes),
        cmocka_unit_test(test_nothing_to_learn),  cmocka_unit_test(test_open_follows_states),
        cmocka_unit_test(test_rejected_for_good),
        cmocka_unit_test(test_candidate_cap),     cmocka_unit_test(test_signature_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
