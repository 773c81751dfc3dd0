/* The record state machine and the effect table, driven through the
 * engine's public API the way the hooks drive it. */
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

#include "fixture.h"

#define SRC DEV_BASE
#define DST (DEV_BASE + 0x100000)
#define OUT (DEV_BASE + 0x200000)
#define OTHER (DEV_BASE + 0x300000)

/* A 6x4 source (ld 6) transposed into a 4x6 destination (ld 4). */
static tf_transpose_desc std_desc(void)
{
    return transpose_desc(SRC, 6, DST, 4, 4, 6, 4);
}

static bool defer(fixture *f, fake_replay *r, tf_transpose_desc d)
{
    return tf_transpose_begin(f->e, &d, replay_of(r), NO_WHY);
}

/* C(4x5) = dst(4x6) * B(6x5): reads the whole destination with op N. */
static tf_gemm std_gemm(void)
{
    return gemm_desc(mat(DST, 4, 4, 6, 4), TF_OP_N, mat(OTHER, 4, 6, 5, 6), TF_OP_N, mat(OUT, 4, 4, 5, 4), 4, 5, 6);
}

static void test_two_folds_then_free(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    assert_true(defer(f, &r, std_desc()));
    for (int i = 0; i < 2; i++) {
        tf_gemm g = std_gemm();
        tf_plan plan;
        tf_gemm_begin(f->e, &g, &plan);
        assert_true(plan.any);
        assert_true(plan.in[0].folded);
        assert_false(plan.in[1].folded);
        assert_int_equal(plan.in[0].addr, SRC);
        assert_int_equal(plan.in[0].ld, 6);
        assert_int_equal(plan.in[0].op, TF_OP_T);
        tf_gemm_end(f->e, &g, &plan, true);
    }
    free_ok(f->e, DEV_BASE, 7);
    assert_int_equal(r.runs, 0);
    assert_int_equal(r.releases, 1);
    assert_int_equal(tf_engine_pending(f->e), 0);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", NULL), 2);
    assert_int_equal(log_count(f, "\"event\":\"drop\"", "\"folds\":2"), 1);
    fixture_free(f);
}

static void access_read(tf_access *a, uint64_t lo, uint64_t hi)
{
    tf_access_read(a, (tf_range){lo, hi});
}

static void test_readback_materializes_once(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    tf_access a = {.api = "cudaMemcpy", .stream = 0};
    access_read(&a, DST, DST + 96);
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
    assert_int_equal(r.runs, 1);
    assert_int_equal(r.trigger, 0);
    assert_int_equal(r.releases, 1);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"", "cudaMemcpy"), 1);
    assert_int_equal(log_count(f, "replay_status", NULL), 0);
    /* a replay that fails is said so, with its status */
    fake_replay bad = {.fail = 700};
    defer(f, &bad, std_desc());
    tf_access_begin(f->e, &a);
    assert_int_equal(bad.runs, 1);
    assert_int_equal(log_count(f, "\"replay_status\":700", NULL), 1);
    fixture_free(f);
}

/* Each row: one call's access, and whether the pending record must run
 * before it (materialize) or dies after it (drop) or is untouched. */
enum verdict { UNTOUCHED, MATERIALIZED, DROPPED };

static void check_effect(tf_access a, bool ok, enum verdict want, tf_policy policy)
{
    fixture *f = fixture_new(TF_MODE_FOLD, policy);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, ok);
    enum verdict got = r.runs ? MATERIALIZED : tf_engine_pending(f->e) ? UNTOUCHED : DROPPED;
    assert_int_equal(got, want);
    fixture_free(f);
}

static void test_effect_table(void **state)
{
    (void)state;
    tf_access a;
    /* read of the destination */
    a = (tf_access){.api = "cudaMemcpy"};
    access_read(&a, DST + 8, DST + 12);
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    /* read of unrelated memory, and of the source */
    a = (tf_access){.api = "cudaMemcpy"};
    access_read(&a, OTHER, OTHER + 64);
    access_read(&a, SRC, SRC + 96);
    check_effect(a, true, UNTOUCHED, TF_POLICY_STRICT);
    /* write into the source */
    a = (tf_access){.api = "cudaMemset"};
    tf_access_write(&a, tf_view_dense(SRC + 4, 4));
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    /* write of all of the destination: dropped after, only if it succeeded */
    a = (tf_access){.api = "cudaMemset"};
    tf_access_write(&a, tf_view_dense(DST, 96));
    check_effect(a, true, DROPPED, TF_POLICY_STRICT);
    check_effect(a, false, UNTOUCHED, TF_POLICY_STRICT);
    /* write of part of the destination */
    a = (tf_access){.api = "cudaMemset"};
    tf_access_write(&a, tf_view_dense(DST, 95));
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    /* unknown access: strict materializes whatever it is */
    a = (tf_access){.api = "kernel", .unknown = true};
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    /* args policy: only a pointer into the allocations holding source or
     * destination (a kernel given a buffer's start reaches all of it) */
    uint64_t params[3] = {0x90000000ull, 42, 0x90000008ull};
    a = (tf_access){.api = "kernel", .unknown = true, .params = params, .params_len = sizeof params};
    check_effect(a, true, UNTOUCHED, TF_POLICY_ARGS);
    params[1] = SRC + 16;
    check_effect(a, true, MATERIALIZED, TF_POLICY_ARGS);
    params[1] = DST + 95;
    check_effect(a, true, MATERIALIZED, TF_POLICY_ARGS);
    params[1] = DEV_BASE + DEV_SIZE - 8; /* same allocation, outside both */
    check_effect(a, true, MATERIALIZED, TF_POLICY_ARGS);
}

/* Conflicts are decided on bytes, not allocations (issue 20): the record's
 * buffers share one allocation with everything else here, as tensors share
 * a caching allocator's segment. A "may write" (a strided write not proven
 * dense) runs what it overlaps and never drops a record, even when its
 * range spans the whole destination. */
static void test_may_write(void **state)
{
    (void)state;
    tf_access a;
    a = (tf_access){.api = "aten"};
    tf_access_maywrite(&a, (tf_range){DST, DST + 96});
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    check_effect(a, true, MATERIALIZED, TF_POLICY_ARGS);
    a = (tf_access){.api = "aten"};
    tf_access_maywrite(&a, (tf_range){SRC + 90, SRC + 200});
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
    a = (tf_access){.api = "aten"}; /* same allocation, next to both */
    tf_access_maywrite(&a, (tf_range){DST + 96, DST + 4096});
    access_read(&a, SRC + 96, SRC + 4096);
    check_effect(a, true, UNTOUCHED, TF_POLICY_STRICT);
    check_effect(a, true, UNTOUCHED, TF_POLICY_ARGS);
    /* a dense write of all of it after a may-write of part: still dropped */
    a = (tf_access){.api = "aten"};
    tf_access_maywrite(&a, (tf_range){OTHER, OTHER + 8});
    tf_access_write(&a, tf_view_dense(DST, 96));
    check_effect(a, true, DROPPED, TF_POLICY_STRICT);
    /* a may-write never covers: the same range as a may-write materializes */
    a = (tf_access){.api = "aten"};
    tf_access_write(&a, tf_view_dense(OTHER, 8));
    tf_access_maywrite(&a, (tf_range){DST, DST + 96});
    check_effect(a, true, MATERIALIZED, TF_POLICY_STRICT);
}

/* Args policy against a record in allocations of its own: a pointer
 * packed at any byte offset, or one past the allocation's end, is a
 * pointer into it; a call with more ranges than TF_MAX_RANGES forgets none
 * of them, it materializes. */
static bool args_materializes(const tf_access *a)
{
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_ARGS);
    tf_alloc(f->e, 0xA0000000ull, 0x1000, TF_MEM_DEVICE);
    tf_alloc(f->e, 0xB0000000ull, 0x1000, TF_MEM_DEVICE);
    fake_replay r = {0};
    assert_true(defer(f, &r, transpose_desc(0xA0000000ull, 6, 0xB0000000ull, 4, 4, 6, 4)));
    tf_access_begin(f->e, a);
    tf_access_end(f->e, a, true);
    fixture_free(f);
    return r.runs == 1;
}

static void test_args_policy_scan(void **state)
{
    (void)state;
    unsigned char params[40];
    tf_access a = {.api = "kernel", .unknown = true, .params = params, .params_len = sizeof params};
    static const struct { uint64_t ptr; size_t off; bool want; } rows[] = {
        {0xB0000010ull, 0, true}, {0xB0000010ull, 1, true}, {0xB0000010ull, 3, true},
        {0xA0000000ull, 5, true}, {0xA0000000ull, 32, true}, {0xB0001000ull, 2, true}, /* one past the end */
        {0xB0001001ull, 2, false}, {0xC0000000ull, 1, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        memset(params, 0, sizeof params);
        memcpy(params + rows[i].off, &rows[i].ptr, sizeof rows[i].ptr);
        assert_int_equal(args_materializes(&a), rows[i].want);
    }
    /* nine writes elsewhere: the ninth cannot be listed, so nothing is assumed */
    a = (tf_access){.api = "cudaMemcpy3DBatchAsync"};
    for (int i = 0; i < TF_MAX_RANGES + 1; i++)
        tf_access_write(&a, tf_view_dense(0xC0000000ull + 0x100 * (uint64_t)i, 16));
    assert_true(a.overflow);
    assert_true(args_materializes(&a));
}

static void test_frees(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    tf_alloc(f->e, 0x90000000ull, 0x1000, TF_MEM_DEVICE);
    tf_alloc(f->e, 0x91000000ull, 0x1000, TF_MEM_DEVICE);
    fake_replay r = {0};
    assert_true(defer(f, &r, transpose_desc(0x90000000ull, 6, 0x91000000ull, 4, 4, 6, 4)));
    free_ok(f->e, 0x90000000ull, 3); /* the source: must run first */
    assert_int_equal(r.runs, 1);
    assert_int_equal(r.trigger, 3);
    fake_replay r2 = {0};
    tf_alloc(f->e, 0x90000000ull, 0x1000, TF_MEM_DEVICE);
    assert_true(defer(f, &r2, transpose_desc(0x90000000ull, 6, 0x91000000ull, 4, 4, 6, 4)));
    free_ok(f->e, 0x12345ull, 3); /* not an allocation we know */
    assert_int_equal(tf_engine_pending(f->e), 1);
    tf_free_begin(f->e, 0x91000000ull, 3, "cudaFree"); /* a free that fails: nothing dies */
    tf_free_end(f->e, 0x91000000ull, "cudaFree", false);
    assert_int_equal(tf_engine_pending(f->e), 1);
    free_ok(f->e, 0x91000000ull, 3);
    assert_int_equal(r2.runs, 0);
    assert_int_equal(r2.releases, 1);
    fixture_free(f);
}

/* PyTorch's caching allocator: tensors live and die inside one allocation;
 * a dead tensor's bytes drop only the records writing nothing but them. */
static void test_storage_freed(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    tf_alloc(f->e, 0x90000000ull, 0x200000, TF_MEM_DEVICE); /* one segment */
    fake_replay r1 = {0}, r2 = {0};
    /* dst 4 x 6, ld 4, f32: 96 bytes each */
    assert_true(defer(f, &r1, transpose_desc(0x90000000ull, 6, 0x90001000ull, 4, 4, 6, 4)));
    assert_true(defer(f, &r2, transpose_desc(0x90000000ull, 6, 0x90002000ull, 4, 4, 6, 4)));
    tf_storage_freed(f->e, (tf_range){ 0x90000000ull, 0x90000200ull }, "torch"); /* the source's tensor */
    tf_storage_freed(f->e, (tf_range){ 0x90002000ull, 0x90002040ull }, "torch"); /* part of r2's destination */
    assert_int_equal(tf_engine_pending(f->e), 2);
    assert_int_equal(r1.runs + r2.runs, 0);
    tf_storage_freed(f->e, (tf_range){ 0x90000e00ull, 0x90001200ull }, "torch"); /* a block holding r1's */
    assert_int_equal(tf_engine_pending(f->e), 1);
    assert_int_equal(r1.runs, 0);
    assert_int_equal(r1.releases, 1);
    assert_int_equal(log_count(f, "\"drop\"", "destination freed by torch"), 1);
    tf_storage_freed(f->e, (tf_range){ 0x90002000ull, 0x90002060ull }, "torch"); /* exactly r2's */
    assert_int_equal(tf_engine_pending(f->e), 0);
    assert_int_equal(r2.runs, 0);
    fixture_free(f);
}

static void test_producer_refusals(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    tf_alloc(f->e, 0x70000000ull, 0x1000, TF_MEM_MANAGED);
    fake_replay r = {0};
    tf_transpose_desc d = std_desc();
    d.alpha.re = 0.3;
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    tf_transpose_end(f->e, &d, true);
    d = std_desc();
    d.src.addr = 0x70000000ull;
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    d = std_desc();
    d.dst.addr = SRC + 8; /* overlaps its source */
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    d = std_desc();
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), TF_WHY(device_pointer_mode)));
    assert_int_equal(r.releases, 4);
    assert_int_equal(r.runs, 0);
    assert_int_equal(tf_engine_pending(f->e), 0);
    /* the key, the class refusals had before keys, and the text with its values */
    assert_int_equal(log_count(f, "\"key\":\"scale_not_one\",\"class\":\"scale\"", "scale 0.3+0i is not 1"), 1);
    assert_int_equal(log_count(f, "\"key\":\"memory\",\"class\":\"memory\"", NULL), 1);
    assert_int_equal(log_count(f, "\"key\":\"in_place\",\"class\":\"in-place\"", NULL), 1);
    assert_int_equal(log_count(f, "\"key\":\"device_pointer_mode\",\"class\":\"producer\"",
                               "\"reason\":\"device pointer mode: alpha and beta unknown\""), 1);
    fixture_free(f);
}

/* The same transpose again and again: whether its buffers lie in device
 * memory follows the allocations as they shrink, grow and go. */
static void test_producer_follows_allocations(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    assert_true(defer(f, &r, std_desc()));
    tf_alloc(f->e, DEV_BASE, 0x1000, TF_MEM_DEVICE); /* reused without a free: now ends before DST */
    assert_false(defer(f, &r, std_desc()));
    assert_int_equal(log_count(f, "\"key\":\"memory\"", NULL), 1);
    tf_alloc(f->e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    assert_true(defer(f, &r, std_desc()));
    free_ok(f->e, DEV_BASE, 7);
    assert_false(defer(f, &r, std_desc()));
    assert_int_equal(log_count(f, "\"key\":\"memory\"", NULL), 2);
    fixture_free(f);
}

/* By default only a scale of exactly 1 is deferred: -1 and 2^k change the
 * sign of zero results or overflow; they run as written. */
static void test_scale_exact_by_default(void **state)
{
    (void)state;
    static const double scales[] = {0.5, -1.0, 2.0, -2.0};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
        fake_replay r = {0};
        tf_transpose_desc d = std_desc();
        d.alpha.re = scales[i];
        assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
        assert_int_equal(r.releases, 1);
        assert_int_equal(tf_engine_pending(f->e), 0);
        assert_int_equal(log_count(f, "\"key\":\"scale_not_one\"", "TRANSFOLD_SCALES=exact"), 1);
        fixture_free(f);
    }
}

static void test_scale_folds_into_alpha(void **state)
{
    (void)state;
    fixture *f = fixture_with(TF_MODE_FOLD, TF_POLICY_STRICT, TF_SCALES_POW2);
    fake_replay r = {0};
    tf_transpose_desc d = std_desc();
    d.alpha.re = 0.5;
    assert_true(defer(f, &r, d));
    tf_gemm g = std_gemm();
    g.in[1].v = mat(DST, 4, 4, 6, 4); /* both operands read the same record */
    g.in[1].op = TF_OP_T;
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.in[0].folded && plan.in[1].folded);
    assert_int_equal(plan.in[1].op, TF_OP_N);
    assert_true(plan.alpha_mul == 0.25);
    tf_gemm_end(f->e, &g, &plan, true);
    /* alpha in device memory cannot absorb the scale: refused, materialized */
    g = std_gemm();
    g.alpha_host = false;
    tf_gemm_begin(f->e, &g, &plan);
    assert_false(plan.any);
    assert_int_equal(r.runs, 1);
    fixture_free(f);
}

static void test_gemm_output_effects(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    /* the GEMM writes its output over the source it would fold onto */
    tf_gemm g = gemm_desc(mat(DST, 4, 4, 6, 4), TF_OP_N, mat(OTHER, 4, 6, 5, 6), TF_OP_N, mat(SRC, 4, 4, 5, 4), 4, 5, 6);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_int_equal(r.runs, 1);
    assert_false(plan.any);
    /* a second record overwritten whole by a beta-0 output: dropped after */
    fake_replay r2 = {0};
    defer(f, &r2, std_desc());
    g = gemm_desc(mat(OTHER, 4, 4, 6, 4), TF_OP_N, mat(OTHER, 4, 6, 6, 6), TF_OP_N, mat(DST, 4, 4, 6, 4), 4, 6, 6);
    tf_gemm_begin(f->e, &g, &plan);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(r2.runs, 0);
    assert_int_equal(tf_engine_pending(f->e), 0);
    fixture_free(f);
}

static void test_fallback(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    tf_gemm g = std_gemm();
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.any);
    tf_gemm_fallback(f->e, &g, &plan, TF_R_cublas_rejected);
    assert_false(plan.any);
    assert_false(plan.in[0].folded);
    assert_int_equal(r.runs, 1);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", NULL), 0);
    assert_int_equal(log_count(f, "\"event\":\"refuse\"", "\"key\":\"library_rejected\",\"class\":\"library\""), 1);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"",
                               "\"key\":\"library_rejected\",\"reason\":\"folded cublasSgemm rejected by the library: "
                               "cuBLAS rejected the folded call\",\"cause\":\"cublas_rejected\""), 1);
    fixture_free(f);
}

static void test_log_mode_changes_nothing(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_LOG, TF_POLICY_STRICT);
    fake_replay r = {0};
    tf_transpose_desc d = std_desc();
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&r), NO_WHY));
    tf_transpose_end(f->e, &d, true);
    assert_int_equal(tf_engine_pending(f->e), 1);
    tf_gemm g = std_gemm();
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_false(plan.any);
    assert_false(plan.in[0].folded);
    tf_gemm_end(f->e, &g, &plan, true);
    tf_access a = {.api = "cudaMemcpy"};
    access_read(&a, DST, DST + 4);
    tf_access_begin(f->e, &a);
    assert_int_equal(r.runs, 0);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", "\"mode\":\"log\""), 1);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"", "\"mode\":\"log\""), 1);
    fixture_free(f);
}

static void test_chained_and_overwritten_producers(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r1 = {0}, r2 = {0}, r3 = {0};
    defer(f, &r1, std_desc());
    /* a transpose of the transposed buffer reads it: the first must run */
    assert_true(defer(f, &r2, transpose_desc(DST, 4, OTHER, 6, 6, 4, 4)));
    assert_int_equal(r1.runs, 1);
    /* a new transpose over the whole of the second's destination replaces it */
    assert_true(defer(f, &r3, transpose_desc(SRC, 6, OTHER, 6, 6, 4, 4) /* same dst */));
    assert_int_equal(r2.runs, 0);
    assert_int_equal(r2.releases, 1);
    assert_int_equal(tf_engine_pending(f->e), 1);
    fixture_free(f);
}

static void test_forced_materializations(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r1 = {0}, r2 = {0};
    tf_transpose_desc d1 = std_desc(), d2 = transpose_desc(SRC, 6, OTHER, 4, 4, 6, 4);
    d1.handle = 0x55;
    d2.stream = 9;
    defer(f, &r1, d1);
    defer(f, &r2, d2);
    tf_materialize_stream(f->e, 9, TF_WHY(capture_ends));
    assert_int_equal(r2.runs, 1);
    assert_int_equal(r1.runs, 0);
    tf_materialize_handle(f->e, 0x55, TF_WHY(cublas_handle_destroyed));
    assert_int_equal(r1.runs, 1);
    fixture_free(f);
}

static void test_exit_drops_and_summarizes(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *sum = open_memstream(&buf, &len);
    tf_config cfg = {.mode = TF_MODE_FOLD, .summary = sum};
    tf_engine *e = tf_engine_new(&cfg);
    tf_alloc(e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    fake_replay r = {0};
    tf_transpose_desc d = std_desc();
    assert_true(tf_transpose_begin(e, &d, replay_of(&r), NO_WHY));
    tf_engine_free(e);
    fclose(sum);
    assert_int_equal(r.runs, 0);
    assert_int_equal(r.releases, 1);
    assert_non_null(strstr(buf, "never run 1"));
    assert_non_null(strstr(buf, "saved 192 B and 1 launch"));
    free(buf);
}

/* A folds onto the record, B reads it too but cannot fold: the record runs,
 * and A must then read the materialized destination, not be rewritten onto
 * a record that no longer exists. */
static void test_one_operand_refused(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    tf_gemm g = std_gemm();
    g.in[1].v = mat(DST, 4, 2, 2, 8); /* another ld: refused */
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_int_equal(r.runs, 1);
    assert_false(plan.any);
    assert_false(plan.in[0].folded);
    assert_int_equal(plan.in[0].record, 0);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", NULL), 0);
    assert_int_equal(log_count(f, "\"event\":\"refuse\"", "\"operand\":\"B\""), 1);
    fixture_free(f);
}

static void test_other_stream_consumer(void **state)
{
    (void)state;
    fixture *f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r = {0};
    defer(f, &r, std_desc());
    tf_gemm g = std_gemm();
    g.acc.stream = 99;
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_false(plan.any);
    assert_int_equal(r.runs, 1);
    assert_int_equal(r.trigger, 99);
    fixture_free(f);
}

/* Log mode, two threads: the hooks release the lock around the real call,
 * so thread 2's producer begins and ends inside thread 1's. Neither record
 * may be taken for the other's (dropped as "overwritten" by its own
 * producer, or its fold count lost). */
typedef struct shadow_race {
    fixture *f;
    sem_t go2, done2;
} shadow_race;

static void *second_producer(void *arg)
{
    shadow_race *s = arg;
    sem_wait(&s->go2);
    tf_transpose_desc d = transpose_desc(SRC + 0x10000, 6, DST + 0x10000, 4, 4, 6, 4);
    tf_transpose_begin(s->f->e, &d, (tf_replay){0}, NO_WHY);
    tf_transpose_end(s->f->e, &d, true);
    sem_post(&s->done2);
    return NULL;
}

static void test_log_mode_threads_keep_their_shadows(void **state)
{
    (void)state;
    shadow_race s = {.f = fixture_new(TF_MODE_LOG, TF_POLICY_STRICT)};
    sem_init(&s.go2, 0, 0);
    sem_init(&s.done2, 0, 0);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, second_producer, &s), 0);
    tf_transpose_desc d = std_desc();
    assert_false(tf_transpose_begin(s.f->e, &d, (tf_replay){0}, NO_WHY));
    sem_post(&s.go2); /* thread 1's producer is "running" now */
    sem_wait(&s.done2);
    tf_transpose_end(s.f->e, &d, true);
    pthread_join(t, NULL);
    assert_int_equal(tf_engine_pending(s.f->e), 2);
    assert_int_equal(log_count(s.f, "\"event\":\"drop\"", NULL), 0);
    sem_destroy(&s.go2);
    sem_destroy(&s.done2);
    fixture_free(s.f);
}

/* A log and a summary that cannot be written (a full disk): the first
 * failure of each is said once on stderr; the engine runs on. */
static void test_write_errors_reported_once(void **state)
{
    (void)state;
    FILE *err = tmpfile();
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(err), 2);
    FILE *full_log = fopen("/dev/full", "w"), *full_summary = fopen("/dev/full", "w");
    tf_config cfg = {.mode = TF_MODE_FOLD, .log = full_log, .summary = full_summary};
    tf_engine *e = tf_engine_new(&cfg);
    tf_alloc(e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    fake_replay r = {0};
    for (int i = 0; i < 3; i++) { /* three events, each a failed write */
        tf_transpose_desc d = std_desc();
        assert_true(tf_transpose_begin(e, &d, replay_of(&r), NO_WHY));
    }
    tf_engine_free(e);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(full_log);
    fclose(full_summary);
    char text[1024] = {0};
    rewind(err);
    size_t n = fread(text, 1, sizeof text - 1, err);
    fclose(err);
    assert_true(n > 0);
    const char *log = strstr(text, "transfold: TRANSFOLD_LOG: write failed (No space left on device)");
    assert_non_null(log);
    assert_null(strstr(log + 20, "TRANSFOLD_LOG: write failed"));
    assert_non_null(strstr(text, "transfold: TRANSFOLD_SUMMARY: write failed (No space left on device)"));
}

/* Holes (holes.c): a fake fill that says what it was asked to copy back. */
typedef struct fake_fill { int calls; int n; tf_range keep[TF_MAX_HOLES + 1]; tf_range fp; uint64_t dst, stream, trigger; } fake_fill;

static int fake_fill_run(void *ctx, const tf_replay *r, const tf_transpose_desc *d, const tf_range *keep, int n,
                         uint64_t trigger)
{
    fake_fill *f = ctx;
    (void)r;
    f->calls++;
    f->fp = tf_view_footprint(&d->dst), f->dst = d->dst.addr, f->stream = d->stream, f->trigger = trigger, f->n = n;
    for (int i = 0; i < n && i <= TF_MAX_HOLES; i++)
        f->keep[i] = keep[i];
    return 0;
}

static int fake_run_to(void *arg, uint64_t dst, uint64_t stream)
{
    (void)arg, (void)dst, (void)stream;
    return 0;
}

static fixture *holes_fixture(fake_fill *fill)
{
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = {.mode = TF_MODE_FOLD, .policy = TF_POLICY_STRICT, .log = f->log,
                     .holes = {.fill = fake_fill_run, .ctx = fill}};
    f->e = tf_engine_new(&cfg);
    tf_alloc(f->e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    return f;
}

static void defer_with_run_to(fixture *f, fake_replay *r)
{
    tf_transpose_desc d = std_desc();
    tf_replay rp = replay_of(r);
    rp.run_to = fake_run_to;
    assert_true(tf_transpose_begin(f->e, &d, rp, NO_WHY));
}

/* One call writing bytes [lo, hi) of the destination. */
static void write_bytes(fixture *f, uint64_t lo, uint64_t hi, bool ok)
{
    tf_access a;
    tf_access_init(&a, "kernel", 7);
    tf_access_write(&a, tf_view_dense(lo, hi - lo));
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, ok);
}

static void read_bytes(fixture *f, uint64_t lo, uint64_t hi)
{
    tf_access a;
    tf_access_init(&a, "cudaMemcpy", 9);
    tf_access_read(&a, (tf_range){lo, hi});
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
}

/* A partial overwrite leaves the record pending; reads of the hole alone
 * are not its business; a read of the rest copies back only the rest. */
static void test_holes_recorded_and_filled(void **state)
{
    (void)state;
    fake_fill fill = {0};
    fixture *f = holes_fixture(&fill);
    fake_replay r = {0};
    defer_with_run_to(f, &r);
    write_bytes(f, DST + 32, DST + 48, true);
    assert_int_equal(tf_engine_pending(f->e), 1);
    assert_int_equal(r.runs + fill.calls, 0);
    read_bytes(f, DST + 36, DST + 44); /* inside the hole */
    assert_int_equal(tf_engine_pending(f->e), 1);
    write_bytes(f, DST + 32, DST + 40, true); /* inside the hole again: nothing new */
    read_bytes(f, DST + 40, DST + 52); /* reaches past it */
    assert_int_equal(tf_engine_pending(f->e), 0);
    assert_int_equal(r.runs, 0);
    assert_int_equal(fill.calls, 1);
    assert_int_equal(fill.n, 2);
    assert_int_equal(fill.keep[0].lo, DST);
    assert_int_equal(fill.keep[0].hi, DST + 32);
    assert_int_equal(fill.keep[1].lo, DST + 48);
    assert_int_equal(fill.keep[1].hi, DST + 96);
    assert_int_equal(fill.fp.lo, DST);
    assert_int_equal(fill.dst, DST);
    assert_int_equal(fill.stream, 7);
    assert_int_equal(fill.trigger, 9);
    assert_int_equal(r.releases, 1);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"", NULL), 1);
    fixture_free(f);
}

/* A GEMM reading the destination over a hole does not fold: the record
 * runs first (survivors only) and the operand reads memory. */
static void test_holes_refuse_fold(void **state)
{
    (void)state;
    fake_fill fill = {0};
    fixture *f = holes_fixture(&fill);
    fake_replay r = {0};
    defer_with_run_to(f, &r);
    write_bytes(f, DST + 88, DST + 96, true);
    tf_gemm g = std_gemm();
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_false(plan.any);
    assert_false(plan.in[0].folded);
    tf_gemm_end(f->e, &g, &plan, true);
    assert_int_equal(fill.calls, 1);
    assert_int_equal(fill.n, 1);
    assert_int_equal(fill.keep[0].hi, DST + 88);
    assert_int_equal(r.runs, 0);
    assert_int_equal(log_count(f, "\"event\":\"fold\"", NULL), 0);
    fixture_free(f);
}

/* Writes that together cover the destination drop it; nothing runs. */
static void test_holes_full_coverage_drops(void **state)
{
    (void)state;
    fake_fill fill = {0};
    fixture *f = holes_fixture(&fill);
    fake_replay r = {0};
    defer_with_run_to(f, &r);
    write_bytes(f, DST - 16, DST + 40, true); /* also past its start */
    write_bytes(f, DST + 60, DST + 200, true);
    assert_int_equal(tf_engine_pending(f->e), 1);
    write_bytes(f, DST + 40, DST + 60, true);
    assert_int_equal(tf_engine_pending(f->e), 0);
    assert_int_equal(r.runs + fill.calls, 0);
    assert_int_equal(log_count(f, "\"event\":\"drop\"", NULL), 1);
    fixture_free(f);
}

/* More holes than a record holds: the write that finds no slot runs the
 * record first, still copying back around the holes it has. A failed
 * write makes no hole; a write into the source, a producer without
 * run_to, or an engine without fill materialise as before. */
static void test_holes_overflow_and_fallbacks(void **state)
{
    (void)state;
    fake_fill fill = {0};
    fixture *f = holes_fixture(&fill);
    fake_replay r = {0};
    defer_with_run_to(f, &r);
    for (int i = 0; i < TF_MAX_HOLES; i++) /* holes [8i, 8i+4) */
        write_bytes(f, DST + 8 * i, DST + 8 * i + 4, true);
    assert_int_equal(tf_engine_pending(f->e), 1);
    write_bytes(f, DST + 84, DST + 88, true);
    assert_int_equal(tf_engine_pending(f->e), 0);
    assert_int_equal(fill.calls, 1);
    assert_int_equal(fill.n, TF_MAX_HOLES); /* [4,8) [12,16) ... [8 MAX - 4, 96) */
    assert_int_equal(fill.keep[0].lo, DST + 4);
    assert_int_equal(fill.keep[TF_MAX_HOLES - 1].lo, DST + 8 * TF_MAX_HOLES - 4);
    assert_int_equal(fill.keep[TF_MAX_HOLES - 1].hi, DST + 96);
    assert_int_equal(r.runs, 0);

    fake_replay r2 = {0};
    defer_with_run_to(f, &r2);
    write_bytes(f, DST, DST + 8, false); /* failed: its bytes are still the record's */
    read_bytes(f, DST, DST + 4);
    assert_int_equal(r2.runs, 1);
    assert_int_equal(fill.calls, 1);

    fake_replay r3 = {0};
    defer(f, &r3, std_desc()); /* no run_to */
    write_bytes(f, DST, DST + 8, true);
    assert_int_equal(r3.runs, 1);

    fake_replay r4 = {0};
    defer_with_run_to(f, &r4);
    tf_access a;
    tf_access_init(&a, "kernel", 7);
    tf_access_write(&a, tf_view_dense(DST, 8));
    tf_access_write(&a, tf_view_dense(SRC, 8)); /* and its source */
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
    assert_int_equal(r4.runs, 1);
    assert_int_equal(fill.calls, 1);
    fixture_free(f);

    fixture *plain = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    fake_replay r5 = {0};
    defer_with_run_to(plain, &r5);
    write_bytes(plain, DST, DST + 8, true);
    assert_int_equal(r5.runs, 1);
    fixture_free(plain);
}

/* Output folding: a GEMM deferred, then a transpose of its whole output.
 * The calls the engine makes on the GEMM's replay, counted. */
typedef struct fake_gemm_ops {
    int transposed, copies, operand;
    uint64_t dst, from_lo, from_hi;
} fake_gemm_ops;

static fake_gemm_ops gemm_ops_seen;

static int fake_run_transposed(void *arg, uint64_t dst, int64_t ld, int64_t stride, uint64_t stream)
{
    (void)arg, (void)ld, (void)stride, (void)stream;
    gemm_ops_seen.transposed++;
    gemm_ops_seen.dst = dst;
    return 0;
}

static int fake_copy_operand(void *arg, int operand, tf_range from, uint64_t stream, uint64_t *to)
{
    (void)arg, (void)stream;
    gemm_ops_seen.copies++;
    gemm_ops_seen.operand = operand;
    gemm_ops_seen.from_lo = from.lo, gemm_ops_seen.from_hi = from.hi;
    *to = 0x70000000ull; /* memory of the replay's own, outside the program's */
    return 0;
}

#define GA (DEV_BASE + 0x400000)
#define GB (DEV_BASE + 0x401000)
#define GC (DEV_BASE + 0x402000)

/* C (4x5, f32) = A (4xk) B (kx5) deferred, then transposed (5x4, ld 5) into
 * `dst`. Whether the transpose became an output fold. */
static bool defer_and_transpose(fixture *f, fake_replay *gr, fake_replay *tr, int64_t k, uint64_t dst,
                                tf_snapshot_operand copy)
{
    tf_gemm g = gemm_desc(mat(GA, 4, 4, k, 4), TF_OP_N, mat(GB, 4, k, 5, k), TF_OP_N, mat(GC, 4, 4, 5, 4), 4, 5, k);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    tf_gemm_end(f->e, &g, &plan, true);
    const tf_gemm_replay_ops ops = { fake_run_transposed, copy };
    tf_replay rp = replay_of(gr);
    assert_true(tf_gemm_defer(f->e, &g, 1, (tf_range){ 0, 0 }, &rp, &ops));
    tf_transpose_desc d = transpose_desc(GC, 4, dst, 5, 5, 4, 4);
    memset(&gemm_ops_seen, 0, sizeof gemm_ops_seen);
    return tf_transpose_begin(f->e, &d, replay_of(tr), NO_WHY) && gemm_ops_seen.transposed == 1;
}

static fixture *output_fold_fixture(void)
{
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = { .mode = TF_MODE_FOLD, .policy = TF_POLICY_STRICT, .log = f->log, .output_fold = true };
    f->e = tf_engine_new(&cfg);
    tf_alloc(f->e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    return f;
}

static void test_output_fold_copies_an_operand_aside(void **state)
{
    (void)state;
    /* The destination (80 bytes) lies on A (48 bytes, k 3), freed by the
     * program and handed to the transpose's output: A is copied aside, the
     * GEMM reads the copy, and writing over A's old bytes no longer runs it. */
    fixture *f = output_fold_fixture();
    fake_replay gr = {0}, tr = {0};
    assert_true(defer_and_transpose(f, &gr, &tr, 3, GA, fake_copy_operand));
    assert_int_equal(gemm_ops_seen.copies, 1);
    assert_int_equal(gemm_ops_seen.operand, 0);
    assert_int_equal(gemm_ops_seen.from_lo, GA);
    assert_int_equal(gemm_ops_seen.from_hi, GA + 48);
    assert_int_equal(gemm_ops_seen.dst, GA);
    assert_int_equal(tr.runs, 0);
    assert_int_equal(gr.runs, 0);
    assert_int_equal(log_count(f, "\"event\":\"output_fold\"", "\"operand_copied\":48"), 1);
    write_bytes(f, GA, GA + 80, true);
    assert_int_equal(gr.runs, 0);
    assert_int_equal(tf_engine_pending(f->e), 1); /* C itself, still to be made if read */
    read_bytes(f, GC, GC + 80);
    assert_int_equal(gr.runs, 1);
    fixture_free(f);

    /* No way to copy the operand: the GEMM runs as called, the transpose
     * is an ordinary record. */
    f = output_fold_fixture();
    gr = (fake_replay){0}, tr = (fake_replay){0};
    assert_false(defer_and_transpose(f, &gr, &tr, 3, GA, NULL));
    assert_int_equal(gr.runs, 1);
    assert_int_equal(log_count(f, "\"event\":\"output_fold\"", NULL), 0);
    fixture_free(f);

    /* A bigger than the transpose (k 30: 480 bytes against 80): copying it
     * would cost more than the copy it saves. */
    f = output_fold_fixture();
    gr = (fake_replay){0}, tr = (fake_replay){0};
    assert_false(defer_and_transpose(f, &gr, &tr, 30, GA, fake_copy_operand));
    assert_int_equal(gemm_ops_seen.copies, 0);
    assert_int_equal(gr.runs, 1);
    fixture_free(f);

    /* Apart from every operand: folded with no copy. */
    f = output_fold_fixture();
    gr = (fake_replay){0}, tr = (fake_replay){0};
    assert_true(defer_and_transpose(f, &gr, &tr, 3, GC + 0x1000, fake_copy_operand));
    assert_int_equal(gemm_ops_seen.copies, 0);
    assert_int_equal(log_count(f, "\"event\":\"output_fold\"", "operand_copied"), 0);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_folds_then_free),      cmocka_unit_test(test_readback_materializes_once),
        cmocka_unit_test(test_effect_table),             cmocka_unit_test(test_frees),
        cmocka_unit_test(test_storage_freed),
        cmocka_unit_test(test_output_fold_copies_an_operand_aside),
        cmocka_unit_test(test_may_write),
        cmocka_unit_test(test_producer_refusals),
        cmocka_unit_test(test_producer_follows_allocations),
        cmocka_unit_test(test_scale_exact_by_default),
        cmocka_unit_test(test_scale_folds_into_alpha),
        cmocka_unit_test(test_log_mode_threads_keep_their_shadows),
        cmocka_unit_test(test_args_policy_scan),
        cmocka_unit_test(test_write_errors_reported_once),
        cmocka_unit_test(test_gemm_output_effects),      cmocka_unit_test(test_fallback),
        cmocka_unit_test(test_log_mode_changes_nothing), cmocka_unit_test(test_chained_and_overwritten_producers),
        cmocka_unit_test(test_forced_materializations),  cmocka_unit_test(test_exit_drops_and_summarizes),
        cmocka_unit_test(test_other_stream_consumer),    cmocka_unit_test(test_one_operand_refused),
        cmocka_unit_test(test_holes_recorded_and_filled), cmocka_unit_test(test_holes_refuse_fold),
        cmocka_unit_test(test_holes_full_coverage_drops), cmocka_unit_test(test_holes_overflow_and_fallbacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
