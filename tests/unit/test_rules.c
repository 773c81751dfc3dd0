/* The kernel-rules parser: good rules, every malformed-line error, and the
 * views a matched rule reads from a launch's parameters. */
#include "fixture.h"

#include <unistd.h>

#include "rules/rules.h"

static void test_design_example(void **state)
{
    (void)state;
    char err[256] = "";
    tf_rules *rs = tf_rules_parse("# transposes\n\n_Z15transpose_naivePfPKfii  out=0 in=1 rows=2 cols=3 elem=4\n",
                                  "t.rules", err, sizeof err);
    assert_non_null(rs);
    assert_int_equal(tf_rules_count(rs), 1);
    assert_non_null(tf_rules_match(rs, "_Z15transpose_naivePfPKfii"));
    assert_null(tf_rules_match(rs, "_Z15transpose_naivePdPKdii"));
    tf_rules_free(rs);
}

static void test_globs_and_order(void **state)
{
    (void)state;
    char err[256];
    tf_rules *rs = tf_rules_parse("*transpose_tiled* out=0 in=1 rows=#8 cols=3 elem=2 # tiled\n"
                                  "*transpose* out=1 in=0 rows=2 cols=3 elem=4 sig=8,8,4,4\n",
                                  "t.rules", err, sizeof err);
    assert_non_null(rs);
    const tf_rule *r = tf_rules_match(rs, "_Z15transpose_tiledPfPKfii");
    int n;
    assert_null(tf_rule_sig(r, &n));
    r = tf_rules_match(rs, "_Z9transposePKfPfii");
    const size_t *sig = tf_rule_sig(r, &n);
    assert_int_equal(n, 4);
    assert_int_equal(sig[2], 4);
    tf_rules_free(rs);
}

/* Every malformed line: the error names the file, the line and the problem. */
static void test_malformed_lines(void **state)
{
    (void)state;
    static const struct { const char *line, *want; } rows[] = {
        {"k out=0 in=1 rows=2 cols=3", "missing elem="},
        {"k out=0 rows=2 cols=3 elem=4", "missing in="},
        {"k in=1 rows=2 cols=3 elem=4", "missing out="},
        {"k out=0 in=1 cols=3 elem=4", "missing rows="},
        {"k out=0 in=1 rows=2 elem=4", "missing cols="},
        {"out=0 in=1 rows=2 cols=3 elem=4", "expected a kernel-name glob"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 color=3", "unknown key 'color'"},
        {"k out=0 out=1 in=1 rows=2 cols=3 elem=4", "duplicate key 'out'"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 elem=2", "duplicate key 'elem'"},
        {"k out=0 in=1 rows=2 cols=3 elem=0", "elem= must be"},
        {"k out=0 in=1 rows=2 cols=3 elem=four", "elem= must be"},
        {"k out=0 in=1 rows=x cols=3 elem=4", "rows=: expected P"},
        {"k out=0 in=1 rows=2@ cols=3 elem=4", "rows=: expected P"},
        {"k out=0 in=1 rows=-2 cols=3 elem=4", "rows=: expected P"},
        {"k out=0 in=1 rows=2:f32 cols=3 elem=4", "unknown type 'f32'"},
        {"k out=0 in=1:i32 rows=2 cols=3 elem=4", "in= has a type"},
        {"k out=0 in=1 rows=2:ptr cols=3 elem=4", "rows= has a type"},
        {"k out=#0 in=1 rows=2 cols=3 elem=4", "out= is a pointer"},
        {"k out=0 in=1 rows=#x cols=3 elem=4", "rows=: literal"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 stray", "'stray' is not key=value"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 =5", "'=5' is not key=value"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 sig=8,x", "sig= must be"},
        {"k out=0 in=1 rows=2 cols=3 elem=4 sig=8,0", "sig= must be"},
        {"k out=0 in=1 rows=2 cols=5 elem=4 sig=8,8,4", "cols= names a parameter beyond sig="},
        {"k out=0 in=1 rows=2 cols=3 elem=4 sig=8,8,4,4 sig=8", "duplicate key 'sig'"},
        {"k out=0 in=1 rows=99999 cols=3 elem=4", "rows=: expected P"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[256], err[256] = "";
        snprintf(text, sizeof text, "# header\ngood out=0 in=1 rows=2 cols=3 elem=4\n%s\n", rows[i].line);
        tf_rules *rs = tf_rules_parse(text, "bad.rules", err, sizeof err);
        if (rs)
            fail_msg("accepted: %s", rows[i].line);
        if (!strstr(err, "bad.rules:3: ") || !strstr(err, rows[i].want))
            fail_msg("line '%s': got '%s', want '%s'", rows[i].line, err, rows[i].want);
    }
}

static void test_load_files(void **state)
{
    (void)state;
    char a[] = "/tmp/tf_rules_aXXXXXX", b[] = "/tmp/tf_rules_bXXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    assert_true(fa >= 0 && fb >= 0);
    dprintf(fa, "ka out=0 in=1 rows=2 cols=3 elem=4\n");
    dprintf(fb, "kb out=0 in=1 rows=2 cols=3 elem=4\n\nkc out=0 in=1 rows=2 cols=3\n");
    close(fa);
    close(fb);
    char paths[128], err[256] = "";
    snprintf(paths, sizeof paths, "%s:%s", a, a);
    tf_rules *rs = tf_rules_load(paths, err, sizeof err);
    assert_non_null(rs);
    assert_int_equal(tf_rules_count(rs), 2);
    tf_rules_free(rs);
    snprintf(paths, sizeof paths, "%s:%s", a, b);
    assert_null(tf_rules_load(paths, err, sizeof err));
    char want[96];
    snprintf(want, sizeof want, "%s:3: missing elem=", b);
    assert_non_null(strstr(err, want));
    assert_null(tf_rules_load("/nonexistent/x.rules", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent/x.rules: cannot read rules file"));
    unlink(a);
    unlink(b);
}

static void test_describe_plain(void **state)
{
    (void)state;
    char err[256];
    tf_reason why;
    tf_rules *rs = tf_rules_parse("k out=0 in=1 rows=2 cols=3 elem=4\n", "t", err, sizeof err);
    float *out = (float *)0x5000, *in = (float *)0x9000;
    int rows = 3, cols = 5;
    void *params[] = {&out, &in, &rows, &cols};
    size_t sizes[] = {8, 8, 4, 4};
    tf_transpose_desc d;
    assert_true(tf_rule_describe(tf_rules_match(rs, "k"), "k", params, sizes, 4, &d, &why));
    assert_int_equal(d.src.addr, 0x9000);
    assert_int_equal(d.src.rows, 5);
    assert_int_equal(d.src.cols, 3);
    assert_int_equal(d.src.ld, 5);
    assert_int_equal(d.dst.addr, 0x5000);
    assert_int_equal(d.dst.rows, 3);
    assert_int_equal(d.dst.cols, 5);
    assert_int_equal(d.dst.ld, 3);
    assert_string_equal(d.producer, "kernel");
    /* a parameter the launch does not have */
    assert_false(tf_rule_describe(tf_rules_match(rs, "k"), "k", params, sizes, 3, &d, &why));
    assert_int_equal(why, TF_R_rule_field_outside);
    rows = -1;
    assert_false(tf_rule_describe(tf_rules_match(rs, "k"), "k", params, sizes, 4, &d, &why));
    assert_int_equal(why, TF_R_rule_negative_shape);
    tf_rules_free(rs);
}

/* A directory, a NUL byte, an endless device: each a one-line error naming
 * the file and the problem, never an empty or cut rule set. */
static void test_load_not_a_rules_file(void **state)
{
    (void)state;
    char err[512], dir[] = "/tmp/tf-rules-XXXXXX", nul[64];
    assert_non_null(mkdtemp(dir));
    assert_null(tf_rules_load(dir, err, sizeof err));
    assert_non_null(strstr(err, "is a directory"));
    snprintf(nul, sizeof nul, "%s/nul.rules", dir);
    FILE *f = fopen(nul, "w");
    static const char text[] = "k out=0 in=1 rows=2 cols=3 elem=4\n\0k2 out=0\n";
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_null(tf_rules_load(nul, err, sizeof err));
    assert_non_null(strstr(err, "nul.rules: cannot read rules file: NUL byte at offset 34"));
    assert_null(tf_rules_load("/dev/zero", err, sizeof err));
    assert_non_null(strstr(err, "/dev/zero: cannot read rules file: NUL byte at offset 0"));
    unlink(nul);
    rmdir(dir);
}

/* Loading rules in the middle of the host program's own strtok loop (the
 * first hook may come from there) leaves its state alone. */
static void test_host_strtok_untouched(void **state)
{
    (void)state;
    char err[256], line[] = "alpha beta gamma";
    assert_string_equal(strtok(line, " "), "alpha");
    tf_rules *rs = tf_rules_parse("k out=0 in=1 rows=2 cols=3 elem=4 sig=8,8,4,4\n", "t", err, sizeof err);
    assert_non_null(rs);
    assert_string_equal(strtok(NULL, " "), "beta");
    assert_string_equal(strtok(NULL, " "), "gamma");
    tf_rules_free(rs);
}

/* Shapes whose products wrap 64 bits (a literal 2^32 x 2^32, an i64 shape
 * from the launch, a batch stride that overflows) would describe an empty
 * footprint: refused, never described. */
static void test_describe_overflow(void **state)
{
    (void)state;
    char err[256];
    tf_reason why;
    float *out = (float *)0x5000, *in = (float *)0x9000;
    int64_t big = (int64_t)1 << 40, small = 4;
    void *params[] = {&out, &in, &big, &small};
    size_t sizes[] = {8, 8, 8, 8};
    static const char *const rules[] = {
        "k out=0 in=1 rows=#4294967296 cols=#4294967296 elem=4\n",
        "k out=0 in=1 rows=2:i64 cols=2:i64 elem=4\n",
        "k out=0 in=1 rows=3:i64 cols=2:i64 batch=#9223372036854775807 elem=4\n",
        "k out=0 in=1 rows=2:i64 cols=3:i64 ld_in=#4611686018427387904 elem=4\n",
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        tf_rules *rs = tf_rules_parse(rules[i], "t", err, sizeof err);
        assert_non_null(rs);
        tf_transpose_desc d;
        assert_false(tf_rule_describe(tf_rules_match(rs, "k"), "k", params, sizes, 4, &d, &why));
        assert_true(why == TF_R_rule_shape_overflow || why == TF_R_rule_address_wrap);
        tf_rules_free(rs);
    }
}

/* nvFuser passes tensors as structs: {T* data; int64 sizes[2]; int64 strides[2]}. */
struct nvf_tensor { void *data; int64_t sizes[2]; int64_t strides[2]; };

static void test_describe_struct_batched(void **state)
{
    (void)state;
    char err[256];
    tf_reason why;
    tf_rules *rs = tf_rules_parse("nvfuser_* in=0@0 out=1@0 rows=0@8:i64 cols=0@16:i64 ld_in=0@24:i64 "
                                  "elem=2 batch=#2 stride_out=#100\n", "t", err, sizeof err);
    assert_non_null(rs);
    struct nvf_tensor t_in = {(void *)0x10000, {4, 6}, {8, 1}}, t_out = {(void *)0x20000, {6, 4}, {4, 1}};
    void *params[] = {&t_in, &t_out};
    size_t sizes[] = {sizeof t_in, sizeof t_out};
    tf_transpose_desc d;
    assert_true(tf_rule_describe(tf_rules_match(rs, "nvfuser_3"), "nvfuser_3", params, sizes, 2, &d, &why));
    assert_int_equal(d.src.addr, 0x10000);
    assert_int_equal(d.src.ld, 8);
    assert_int_equal(d.src.stride, 4 * 8);
    assert_int_equal(d.dst.stride, 100);
    assert_int_equal(d.dst.batch, 2);
    assert_int_equal(d.dst.elem, 2);
    /* struct fields need parameter sizes to be read safely */
    assert_false(tf_rule_describe(tf_rules_match(rs, "nvfuser_3"), "nvfuser_3", params, NULL, 2, &d, &why));
    size_t small[] = {16, sizeof t_out};
    assert_false(tf_rule_describe(tf_rules_match(rs, "nvfuser_3"), "nvfuser_3", params, small, 2, &d, &why));
    tf_rules_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_example), cmocka_unit_test(test_globs_and_order),
        cmocka_unit_test(test_malformed_lines), cmocka_unit_test(test_load_files),
        cmocka_unit_test(test_describe_plain), cmocka_unit_test(test_describe_overflow), cmocka_unit_test(test_host_strtok_untouched), cmocka_unit_test(test_load_not_a_rules_file), cmocka_unit_test(test_describe_struct_batched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
