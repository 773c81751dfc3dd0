/* The reason table: keys are unique snake_case names, every text uses only
 * the conversions tf_why_text fills, and the texts come out as the log has
 * always written them. */
#include "fixture.h"

static bool snake_case(const char *k)
{
    if (!k || !*k || *k == '_')
        return false;
    for (; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_'))
            return false;
    return true;
}

static void test_keys_unique_and_snake_case(void **state)
{
    (void)state;
    assert_null(tf_reason_key(TF_R_NONE));
    assert_null(tf_reason_key(TF_R_COUNT));
    for (int i = TF_R_NONE + 1; i < TF_R_COUNT; i++) {
        const char *k = tf_reason_key((tf_reason)i);
        assert_true(snake_case(k));
        assert_non_null(tf_reason_class((tf_reason)i));
        assert_true(tf_reason_text((tf_reason)i)[0] != '\0');
        for (int j = TF_R_NONE + 1; j < i; j++)
            assert_string_not_equal(k, tf_reason_key((tf_reason)j));
    }
}

/* A conversion the formatter does not know would print as text, not take a
 * value: the table must not use one. */
static void test_texts_use_known_conversions(void **state)
{
    (void)state;
    static const char *const known[] = { "%s", "%lld", "%+g", "%g" };
    for (int i = TF_R_NONE + 1; i < TF_R_COUNT; i++) {
        for (const char *p = strchr(tf_reason_text((tf_reason)i), '%'); p; p = strchr(p + 1, '%')) {
            bool ok = false;
            for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
                ok |= strncmp(p, known[k], strlen(known[k])) == 0;
            if (!ok)
                fail_msg("%s: unknown conversion at \"%s\"", tf_reason_key((tf_reason)i), p);
        }
    }
}

static void test_text_with_values(void **state)
{
    (void)state;
    char buf[160];
    tf_why w = TF_WHY(ld, .num = { 128, 64 });
    assert_string_equal(tf_why_text(&w, buf, sizeof buf), "leading dimension 128 != transpose's 64");
    w = TF_WHY(scale_not_one, .real = { -1, 0 });
    assert_string_equal(tf_why_text(&w, buf, sizeof buf), "scale -1+0i is not 1 (TRANSFOLD_SCALES=exact)");
    w = TF_WHY(operand_refused, .str = { "cublasSgemm_v2", "A", "subview" });
    assert_string_equal(tf_why_text(&w, buf, sizeof buf), "read by cublasSgemm_v2 operand A: subview");
    w = TF_WHY(capture);
    assert_string_equal(tf_why_text(&w, buf, sizeof buf), "issued into a stream capture: it runs in the graph");
}

/* Missing values, a short buffer and a key out of the table stay defined. */
static void test_text_never_overruns(void **state)
{
    (void)state;
    char buf[16];
    tf_why w = TF_WHY(dst_read);
    assert_string_equal(tf_why_text(&w, buf, sizeof buf), "destination rea");
    w = TF_WHY(unknown_access);
    char big[64];
    assert_string_equal(tf_why_text(&w, big, sizeof big), "unknown access by ?");
    w = TF_WHY_KEY(TF_R_COUNT);
    assert_string_equal(tf_why_text(&w, big, sizeof big), "");
    memset(buf, 'x', sizeof buf);
    assert_string_equal(tf_why_text(&w, buf, 1), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_unique_and_snake_case),
        cmocka_unit_test(test_texts_use_known_conversions),
        cmocka_unit_test(test_text_with_values),
        cmocka_unit_test(test_text_never_overruns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
