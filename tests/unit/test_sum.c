/* tf_sum_classify, table-driven: every scale case, either operand as the
 * source, absent operands, each refusal and their order; in place is left
 * to tf_transpose_begin. */
#include "fixture.h"

#include "algebra/sum.h"

enum { A = TF_SUM_A, B = TF_SUM_B };
#define DEV TF_R_device_pointer_mode
#define BOTH TF_R_both_operands
#define CONV TF_R_type_conversion
#define STREAM TF_R_stream_unusable

typedef struct row {
    const char *what;
    tf_sum in;
    bool transpose;
    int src;
    bool read_a, read_b;
    tf_reason refuse;
} row;

/* given, transposes, zero, converts */
#define T(t, z) { true, t, z, false }
#define HOST(a, b) { .term = { a, b }, .host = true, .stream_usable = true }

static const row rows[] = {
    { "no transpose", HOST(T(false, false), T(false, true)), false, B, true, false, TF_R_NONE },
    { "A^T, beta 0", HOST(T(true, false), T(false, true)), true, A, true, false, TF_R_NONE },
    { "B^T, alpha 0", HOST(T(false, true), T(true, false)), true, B, false, true, TF_R_NONE },
    { "both ^T, beta 0", HOST(T(true, false), T(true, true)), true, A, true, false, TF_R_NONE },
    { "both ^T, alpha 0", HOST(T(true, true), T(true, false)), true, B, false, true, TF_R_NONE },
    { "both ^T, both 0", HOST(T(true, true), T(true, true)), true, A, false, false, TF_R_NONE },
    { "A^T, alpha 0 (C = 0)", HOST(T(true, true), T(false, true)), true, A, false, false, TF_R_NONE },
    { "A^T, both nonzero", HOST(T(true, false), T(false, false)), true, A, true, true, BOTH },
    { "both ^T, both nonzero", HOST(T(true, false), T(true, false)), true, A, true, true, BOTH },
    { "A^T, alpha 0, B^N read", HOST(T(true, true), T(false, false)), true, A, false, true, BOTH },
    { "device scalars: zeros unknown", { .term = { T(true, true), T(false, true) }, .stream_usable = true },
      true, A, true, true, DEV },
    { "device scalars, no transpose", { .term = { T(false, true), T(false, true) }, .stream_usable = true },
      false, B, true, true, TF_R_NONE },
    { "B absent, A^T", HOST(T(true, false), {0}), true, A, true, false, TF_R_NONE },
    { "A absent, B^T", HOST({0}, T(true, false)), true, B, false, true, TF_R_NONE },
    { "absent B marked transposing", HOST(T(false, false), ((tf_sum_term){ false, true, false, false })),
      false, B, true, false, TF_R_NONE },
    { "source converts", HOST(((tf_sum_term){ true, true, false, true }), T(false, true)), true, A, true, false,
      CONV },
    { "unread operand converts", HOST(T(true, false), ((tf_sum_term){ true, false, true, true })), true, A, true,
      false, TF_R_NONE },
    { "stream unusable", { .term = { T(true, false), T(false, true) }, .host = true }, true, A, true, false,
      STREAM },
    { "stream unusable, no transpose", { .term = { T(false, false), T(false, true) }, .host = true }, false, B,
      true, false, TF_R_NONE },
    { "device before the rest", { .term = { ((tf_sum_term){ true, true, false, true }), T(false, false) } },
      true, A, true, true, DEV },
    { "both before conversion", { .term = { ((tf_sum_term){ true, true, false, true }), T(false, false) },
      .host = true }, true, A, true, true, BOTH },
    { "conversion before stream", { .term = { T(false, true), ((tf_sum_term){ true, true, false, true }) },
      .host = true }, true, B, false, true, CONV },
};

static bool as_expected(const tf_sum_plan *p, const row *r)
{
    bool refuse_ok = p->refuse == r->refuse;
    return p->transpose == r->transpose && (!p->transpose || p->src == r->src) && p->read[A] == r->read_a &&
           p->read[B] == r->read_b && refuse_ok;
}

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row *r = &rows[i];
        tf_sum_plan p = tf_sum_classify(&r->in);
        if (!as_expected(&p, r))
            fail_msg("%s: transpose %d, src %d, read %d %d, refuse %s", r->what, p.transpose, p.src, p.read[A],
                     p.read[B], p.refuse ? tf_reason_key(p.refuse) : "none");
    }
}

/* C = A^T written over A itself: the classifier accepts it, the engine
 * refuses it once it sees the views overlap. */
static void test_in_place(void **state)
{
    (void)state;
    tf_sum in = HOST(T(true, false), T(false, true));
    tf_sum_plan p = tf_sum_classify(&in);
    assert_true(p.transpose);
    assert_int_equal(p.refuse, TF_R_NONE);
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    tf_transpose_desc d = transpose_desc(DEV_BASE, 4, DEV_BASE, 4, 4, 4, 4);
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), TF_WHY_KEY(p.refuse)));
    tf_transpose_end(f->e, &d, true);
    assert_int_equal(r.releases, 1);
    assert_int_equal(log_count(f, "\"key\":\"in_place\"", NULL), 1);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_table), cmocka_unit_test(test_in_place) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
