/* Late reads of a deferred source (analysis/engine/late.c): once a record that was
 * read late (by folded GEMMs, or by its replay) has ended, a mark is made
 * on its stream; writes to its source from other streams, accesses to a
 * destination its replay wrote, unknown accesses from other streams and
 * frees wait on that mark until it is done. */
#include "fixture.h"

enum { SRC = DEV_BASE + 0x1000, DST = DEV_BASE + 0x2000, XB = DEV_BASE + 0x3000, OUT = DEV_BASE + 0x4000,
       OTHER = DEV_BASE + 0x5000 };

typedef struct fake_mark { uint64_t stream; bool done; int waits; uint64_t waited; bool released; } fake_mark;
typedef struct fake_sync { fake_mark marks[8]; int n; } fake_sync;

static void *mark(void *ctx, uint64_t stream)
{
    fake_sync *s = ctx;
    fake_mark *m = &s->marks[s->n++];
    m->stream = stream;
    return m;
}
static bool done(void *ctx, void *m) { (void)ctx; return ((fake_mark *)m)->done; }
static void wait(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    ((fake_mark *)m)->waits++;
    ((fake_mark *)m)->waited = stream;
}
static void release(void *ctx, void *m) { (void)ctx; ((fake_mark *)m)->released = true; }
static int remarks;
static bool remark(void *ctx, void *m, uint64_t stream)
{
    (void)ctx;
    remarks++;
    return ((fake_mark *)m)->stream == stream;
}

static fixture *late_fixture(tf_mode mode, fake_sync *s)
{
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = {.mode = mode, .policy = TF_POLICY_STRICT, .log = f->log,
                     .sync = {mark, done, wait, release, s, NULL, remark}};
    f->e = tf_engine_new(&cfg);
    tf_alloc(f->e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    return f;
}

/* dst (4 x 6, ld 4) = transpose of src (6 x 4, ld 6) on stream 7. */
static bool defer(fixture *f, fake_replay *r)
{
    tf_transpose_desc d = transpose_desc(SRC, 6, DST, 4, 4, 6, 4);
    return tf_transpose_begin(f->e, &d, replay_of(r), NO_WHY);
}

static void fold_once(fixture *f)
{
    tf_gemm g = gemm_desc(mat(DST, 4, 4, 6, 4), TF_OP_N, mat(XB, 4, 6, 5, 6), TF_OP_N, mat(OUT, 4, 4, 5, 4), 4, 5, 6);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_true(plan.in[0].folded);
    tf_gemm_end(f->e, &g, &plan, true);
}

/* Log mode: the fold is only reported. */
static void fold_once_log(fixture *f)
{
    tf_gemm g = gemm_desc(mat(DST, 4, 4, 6, 4), TF_OP_N, mat(XB, 4, 6, 5, 6), TF_OP_N, mat(OUT, 4, 4, 5, 4), 4, 5, 6);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    assert_false(plan.any);
    tf_gemm_end(f->e, &g, &plan, true);
}

static tf_access writes(uint64_t stream, uint64_t addr, uint64_t bytes)
{
    tf_access a = {.api = "cudaMemsetAsync", .stream = stream};
    tf_access_write(&a, tf_view_dense(addr, bytes));
    return a;
}

static void run_access(fixture *f, tf_access a)
{
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
}

static void test_folded_then_dropped(void **state)
{
    (void)state;
    fake_sync s = {0};
    fixture *f = late_fixture(TF_MODE_FOLD, &s);
    fake_replay r = {0};
    assert_true(defer(f, &r));
    fold_once(f);
    run_access(f, writes(7, DST, 4 * 6 * 4)); /* the destination overwritten: dropped */
    assert_int_equal(r.runs, 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.marks[0].stream, 7);
    assert_int_equal(tf_engine_pending(f->e), 1); /* the late read keeps the hooks watching */
    run_access(f, writes(7, SRC, 16));            /* same stream: ordered already */
    run_access(f, writes(9, OTHER, 16));          /* another stream, elsewhere */
    assert_int_equal(s.marks[0].waits, 0);
    run_access(f, writes(9, SRC + 8, 4));         /* another stream rewrites the source */
    assert_int_equal(s.marks[0].waits, 1);
    assert_int_equal(s.marks[0].waited, 9);
    tf_access unknown = {.api = "kernel", .stream = 11, .unknown = true};
    run_access(f, unknown);
    assert_int_equal(s.marks[0].waits, 2);
    assert_int_equal(s.marks[0].waited, 11);
    s.marks[0].done = true; /* complete: forgotten at the next look */
    run_access(f, writes(9, SRC, 16));
    assert_int_equal(s.marks[0].waits, 2);
    assert_true(s.marks[0].released);
    assert_int_equal(tf_engine_pending(f->e), 0);
    fixture_free(f);
}

static void test_replayed_then_freed(void **state)
{
    (void)state;
    fake_sync s = {0};
    fixture *f = late_fixture(TF_MODE_FOLD, &s);
    fake_replay r = {0};
    assert_true(defer(f, &r));
    tf_access read = {.api = "cudaMemcpyAsync", .stream = 7};
    tf_access_read(&read, (tf_range){DST, DST + 16});
    run_access(f, read); /* the destination read: replayed */
    assert_int_equal(r.runs, 1);
    assert_int_equal(s.n, 1);
    tf_access other = {.api = "cudaMemcpyAsync", .stream = 9};
    tf_access_read(&other, (tf_range){DST + 4, DST + 8});
    run_access(f, other); /* the replay wrote the destination late: a reader elsewhere waits */
    assert_int_equal(s.marks[0].waits, 1);
    tf_free_begin(f->e, DEV_BASE, 9, "cudaFreeAsync");
    assert_int_equal(s.marks[0].waits, 2);
    assert_int_equal(s.marks[0].waited, 9);
    tf_free_end(f->e, DEV_BASE, "cudaFreeAsync", true);
    fixture_free(f);
}

/* A second record ending on the same stream moves the one mark there. */
static void test_one_mark_a_stream(void **state)
{
    (void)state;
    fake_sync s = {0};
    fixture *f = late_fixture(TF_MODE_FOLD, &s);
    fake_replay r1 = {0}, r2 = {0};
    remarks = 0;
    for (int i = 0; i < 2; i++) {
        assert_true(defer(f, i ? &r2 : &r1));
        fold_once(f);
        run_access(f, writes(7, DST, 4 * 6 * 4));
    }
    assert_int_equal(s.n, 1);
    assert_int_equal(remarks, 1);
    assert_int_equal(tf_engine_pending(f->e), 1);
    run_access(f, writes(9, SRC, 4));
    assert_int_equal(s.marks[0].waits, 1);
    fixture_free(f);
}

static void test_no_late_read(void **state)
{
    (void)state;
    fake_sync s = {0};
    fixture *f = late_fixture(TF_MODE_FOLD, &s);
    fake_replay r = {0};
    assert_true(defer(f, &r));
    run_access(f, writes(7, DST, 4 * 6 * 4)); /* dropped, never read: nothing read late */
    assert_int_equal(s.n, 0);
    assert_int_equal(tf_engine_pending(f->e), 0);
    fixture_free(f);
    fake_sync s2 = {0};
    f = late_fixture(TF_MODE_LOG, &s2); /* log mode changes no order */
    fake_replay r2 = {0};
    defer(f, &r2);
    fold_once_log(f);
    run_access(f, writes(7, DST, 4 * 6 * 4));
    assert_int_equal(s2.n, 0);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_folded_then_dropped),
        cmocka_unit_test(test_replayed_then_freed),
        cmocka_unit_test(test_one_mark_a_stream),
        cmocka_unit_test(test_no_late_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
