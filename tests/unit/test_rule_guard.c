/* Rule guards (if=, module=, threads=): parsing, errors, and which launch a
 * guarded rule matches. */
#include "fixture.h"

#include "rules/rules_internal.h" /* a rule set is an array: the second rule is first + 1 */

/* Parameters of kernel1(Tensor T0, Tensor T1): data, size[2], stride[2]. */
typedef struct tensor { uint64_t data; int64_t size[2], stride[2]; } tensor;

static const char *GUARDED =
    "k in=0@0:ptr out=1@0:ptr rows=#24 cols=#16 elem=4 ld_in=#16 ld_out=#24 module=00000000000000ab threads=384 "
    "if=0@8:u64=24 if=0@16:i64=16 if=1@8:u32=16\n"
    "k in=0@0:ptr out=1@0:ptr rows=0@8:i64 cols=0@16:i64 elem=4\n";

static const tf_rule *match(const tf_rules *rs, uint64_t module, tensor *t0, tensor *t1)
{
    void *params[2] = {t0, t1};
    size_t sizes[2] = {sizeof *t0, sizeof *t1};
    return tf_rules_match_launch(rs, tf_rules_match(rs, "k"), "k", module, params, sizes, 2);
}

static void test_guards_select_the_rule(void **state)
{
    (void)state;
    char err[256] = "";
    tf_rules *rs = tf_rules_parse(GUARDED, "g.rules", err, sizeof err);
    assert_non_null(rs);
    const tf_rule *first = tf_rules_match(rs, "k"), *unguarded = first + 1;
    tensor t0 = {0x1000, {24, 16}, {16, 1}}, t1 = {0x2000, {16, 24}, {24, 1}};
    assert_ptr_equal(match(rs, 0xab, &t0, &t1), first);
    assert_ptr_equal(match(rs, 0xac, &t0, &t1), unguarded); /* another module */
    t0.size[1] = 17;
    assert_ptr_equal(match(rs, 0xab, &t0, &t1), unguarded); /* another shape */
    t0.size[1] = 16;
    t1.size[0] = 16 + (1ll << 32); /* the u32 guard reads only its low half */
    assert_ptr_equal(match(rs, 0xab, &t0, &t1), first);
    assert_null(tf_rules_match_launch(rs, first, "other", 0xab, NULL, NULL, 0));
    tf_rules_free(rs);
}

static void test_coverage(void **state)
{
    (void)state;
    char err[256] = "";
    tf_rules *rs = tf_rules_parse(GUARDED, "g.rules", err, sizeof err);
    const tf_rule *first = tf_rules_match(rs, "k");
    assert_true(tf_rule_covers(first, 384, 384));
    assert_false(tf_rule_covers(first, 383, 384));
    assert_true(tf_rule_covers(first + 1, 24, 384)); /* 16 elements a thread */
    assert_false(tf_rule_covers(first + 1, 23, 384));
    tf_rules_free(rs);
}

static void expect_error(const char *line, const char *problem)
{
    char err[256] = "";
    tf_rules *rs = tf_rules_parse(line, "bad.rules", err, sizeof err);
    assert_null(rs);
    assert_non_null(strstr(err, "bad.rules:1: "));
    if (!strstr(err, problem))
        fail_msg("'%s' does not say '%s'", err, problem);
}

static void test_guard_errors(void **state)
{
    (void)state;
    const char *base = "k in=0 out=1 rows=2 cols=3 elem=4 ";
    char line[256];
    struct { const char *extra, *problem; } cases[] = {
        {"if=0@8=3", "P@OFF:TYPE=VALUE"},
        {"if=0@8:f32=3", "unknown type"},
        {"if=x:u32=3", "expected a parameter"},
        {"if=0:u8=256", "does not fit"},
        {"if=0:i32=-2147483649", "does not fit"},
        {"if=0:u64=-1", "does not fit"},
        {"module=12", "16 hex digits"},
        {"module=00000000000000ab module=00000000000000ab", "duplicate key 'module'"},
        {"threads=0", "positive"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(line, sizeof line, "%s%s\n", base, cases[i].extra);
        expect_error(line, cases[i].problem);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guards_select_the_rule),
        cmocka_unit_test(test_coverage),
        cmocka_unit_test(test_guard_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
