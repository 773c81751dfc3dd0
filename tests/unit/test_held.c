/* Frees held for pending records (analysis/engine/held.c): PyTorch's
 * cudaMallocAsync backend frees a weight-gradient GEMM's inputs and its
 * cuBLAS workspace on the GEMM's stream before AccumulateGrad's copy reads
 * the output transposed. */
#include "fixture.h"

/* Pool allocations, one per buffer (a free takes a whole allocation). */
#define PA 0x20000000ull /* A: 4x3 f32 */
#define PB 0x20010000ull /* B: 3x5 f32 */
#define PC 0x20020000ull /* C: 4x5 f32 */
#define PW 0x20030000ull /* the workspace */
#define PT 0x20040000ull /* the transpose's destination */
#define PSIZE 0x1000ull
#define STREAM 7 /* gemm_desc's and transpose_desc's */

typedef struct released { int n; uint64_t base[8], bytes[8], stream[8]; void *ctx[8]; } released;
static released freed;

static void fake_release_free(void *ctx, const tf_held_free *f)
{
    (void)ctx;
    if (freed.n < 8) {
        freed.base[freed.n] = f->base, freed.bytes[freed.n] = f->bytes;
        freed.stream[freed.n] = f->stream, freed.ctx[freed.n] = f->ctx;
    }
    freed.n++;
}

static int transposed;
static int fake_run_transposed(void *arg, uint64_t dst, int64_t ld, int64_t stride, uint64_t stream)
{
    (void)arg, (void)dst, (void)ld, (void)stride, (void)stream;
    transposed++;
    return 0;
}

static fixture *held_fixture(uint64_t max_bytes)
{
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = { .mode = TF_MODE_FOLD, .policy = TF_POLICY_STRICT, .log = f->log, .output_fold = true,
                      .hold = { fake_release_free, NULL, max_bytes } };
    f->e = tf_engine_new(&cfg);
    for (uint64_t b = PA; b <= PT; b += 0x10000)
        tf_alloc(f->e, b, PSIZE, TF_MEM_POOL);
    memset(&freed, 0, sizeof freed);
    transposed = 0;
    return f;
}

/* C = A B deferred on STREAM with the workspace PW. */
static void defer_gemm(fixture *f, fake_replay *gr)
{
    tf_gemm g = gemm_desc(mat(PA, 4, 4, 3, 4), TF_OP_N, mat(PB, 4, 3, 5, 3), TF_OP_N, mat(PC, 4, 4, 5, 4), 4, 5, 3);
    tf_plan plan;
    tf_gemm_begin(f->e, &g, &plan);
    tf_gemm_end(f->e, &g, &plan, true);
    const tf_gemm_replay_ops ops = { fake_run_transposed, NULL };
    tf_replay rp = replay_of(gr);
    assert_true(tf_gemm_defer(f->e, &g, 1, (tf_range){ PW, PW + 256 }, &rp, &ops));
}

static bool hold(fixture *f, uint64_t base, uint64_t stream)
{
    tf_held_free h = { .base = base, .stream = stream, .ctx = (void *)0x1 };
    return tf_free_hold(f->e, &h, "cudaFreeAsync");
}

static void test_gemm_inputs_held_until_output_fold(void **state)
{
    (void)state;
    fixture *f = held_fixture(1 << 20);
    fake_replay gr = {0}, tr = {0};
    defer_gemm(f, &gr);
    /* The workspace, then both operands, freed on the GEMM's stream. */
    assert_true(hold(f, PW, STREAM));
    assert_true(hold(f, PA, STREAM));
    assert_true(hold(f, PB, STREAM));
    assert_int_equal(gr.runs, 0);
    assert_int_equal(freed.n, 0);
    assert_int_equal(log_count(f, "\"event\":\"free_held\"", "\"bytes\":4096"), 3);
    /* AccumulateGrad's copy: the GEMM writes it transposed. */
    tf_transpose_desc d = transpose_desc(PC, 4, PT, 5, 5, 4, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&tr), NO_WHY));
    assert_int_equal(transposed, 1);
    assert_int_equal(tr.runs + gr.runs, 0);
    assert_int_equal(freed.n, 0); /* C is still the record's to make if read */
    /* C dies: the record leaves, and the frees are made on its stream. */
    tf_held_free c = { .base = PC, .stream = STREAM };
    assert_true(!tf_free_hold(f->e, &c, "cudaFreeAsync")); /* nothing reads C: an ordinary free */
    tf_free_begin(f->e, PC, STREAM, "cudaFreeAsync");
    tf_free_end(f->e, PC, "cudaFreeAsync", true);
    assert_int_equal(gr.runs, 0);
    assert_int_equal(freed.n, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(freed.stream[i], STREAM);
        assert_int_equal(freed.bytes[i], PSIZE);
        assert_ptr_equal(freed.ctx[i], (void *)0x1);
    }
    assert_int_equal(log_count(f, "\"event\":\"gemm_drop\"", "dst_freed"), 1);
    fixture_free(f);
}

static void test_free_held_only_where_safe(void **state)
{
    (void)state;
    /* Another stream: the GEMM's replay would not be ordered before it. */
    fixture *f = held_fixture(1 << 20);
    fake_replay gr = {0};
    defer_gemm(f, &gr);
    assert_false(hold(f, PA, STREAM + 1));
    assert_int_equal(gr.runs, 0); /* the caller's ordinary free runs it */
    tf_free_begin(f->e, PA, STREAM + 1, "cudaFreeAsync");
    assert_int_equal(gr.runs, 1);
    tf_free_end(f->e, PA, "cudaFreeAsync", true);
    fixture_free(f);

    /* Memory nothing pending reads, memory not from a pool, no memory. */
    f = held_fixture(1 << 20);
    gr = (fake_replay){0};
    defer_gemm(f, &gr);
    assert_false(hold(f, PT, STREAM));
    tf_alloc(f->e, 0x30000000ull, PSIZE, TF_MEM_DEVICE);
    assert_false(hold(f, 0x30000000ull, STREAM));
    assert_false(hold(f, 0x31000000ull, STREAM));
    assert_int_equal(freed.n + gr.runs, 0);
    fixture_free(f);

    /* Beyond the bound: the second free runs the GEMM as usual. */
    f = held_fixture(PSIZE);
    gr = (fake_replay){0};
    defer_gemm(f, &gr);
    assert_true(hold(f, PA, STREAM));
    assert_false(hold(f, PB, STREAM));
    tf_free_begin(f->e, PB, STREAM, "cudaFreeAsync");
    assert_int_equal(gr.runs, 1);
    assert_int_equal(freed.n, 1); /* A's free made once the GEMM ran */
    assert_int_equal(freed.base[0], PA);
    tf_free_end(f->e, PB, "cudaFreeAsync", true);
    fixture_free(f);

    /* No release given (or log mode): never held. */
    f = fixture_new(TF_MODE_FOLD, TF_POLICY_STRICT);
    tf_held_free h = { .base = DEV_BASE, .stream = STREAM };
    assert_false(tf_free_hold(f->e, &h, "cudaFreeAsync"));
    fixture_free(f);
}

static void test_held_frees_given_back(void **state)
{
    (void)state;
    /* Out of memory: the GEMM runs as called and its frees are made. */
    fixture *f = held_fixture(1 << 20);
    fake_replay gr = {0};
    defer_gemm(f, &gr);
    assert_true(hold(f, PA, STREAM));
    assert_true(hold(f, PW, STREAM));
    assert_true(tf_holds_return(f->e, STREAM, "cudaMallocAsync"));
    assert_int_equal(gr.runs, 1);
    assert_int_equal(freed.n, 2);
    assert_int_equal(log_count(f, "\"event\":\"gemm_run\"", "pool_exhausted"), 1);
    assert_false(tf_holds_return(f->e, STREAM, "cudaMallocAsync"));
    fixture_free(f);

    /* A read of C runs the GEMM, then the frees are made (after it). */
    f = held_fixture(1 << 20);
    gr = (fake_replay){0};
    defer_gemm(f, &gr);
    assert_true(hold(f, PB, STREAM));
    tf_access a;
    tf_access_init(&a, "kernel", STREAM);
    tf_access_read(&a, (tf_range){ PC, PC + 80 });
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
    assert_int_equal(gr.runs, 1);
    assert_int_equal(freed.n, 1);
    fixture_free(f);

    /* Exit: the process takes the memory; nothing is freed then. */
    f = held_fixture(1 << 20);
    gr = (fake_replay){0};
    defer_gemm(f, &gr);
    assert_true(hold(f, PA, STREAM));
    tf_engine_free(f->e);
    f->e = NULL;
    assert_int_equal(freed.n, 0);
    fixture_free(f);
}

static void test_transpose_source_held(void **state)
{
    (void)state;
    /* t = W.t().contiguous(); del W: the copy stays deferred, folds into
     * its GEMM, and W's free is made when t dies. */
    fixture *f = held_fixture(1 << 20);
    fake_replay tr = {0};
    tf_transpose_desc d = transpose_desc(PA, 4, PT, 5, 5, 4, 4);
    assert_true(tf_transpose_begin(f->e, &d, replay_of(&tr), NO_WHY));
    assert_true(hold(f, PA, STREAM));
    assert_int_equal(tr.runs, 0);
    tf_free_begin(f->e, PT, STREAM, "cudaFreeAsync");
    tf_free_end(f->e, PT, "cudaFreeAsync", true);
    assert_int_equal(tr.runs, 0);
    assert_int_equal(freed.n, 1);
    assert_int_equal(freed.base[0], PA);
    fixture_free(f);
}

static void test_log_mode_shadows_a_hold(void **state)
{
    (void)state;
    /* Log mode frees for real, but says the free would be held, and the
     * source's later reuse no longer runs the shadow record. */
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = { .mode = TF_MODE_LOG, .policy = TF_POLICY_STRICT, .log = f->log,
                      .hold = { fake_release_free, NULL, 1 << 20 } };
    f->e = tf_engine_new(&cfg);
    tf_alloc(f->e, PA, PSIZE, TF_MEM_POOL);
    tf_alloc(f->e, PT, PSIZE, TF_MEM_POOL);
    memset(&freed, 0, sizeof freed);
    fake_replay tr = {0};
    tf_transpose_desc d = transpose_desc(PA, 4, PT, 5, 5, 4, 4);
    assert_false(tf_transpose_begin(f->e, &d, replay_of(&tr), NO_WHY));
    tf_transpose_end(f->e, &d, true);
    assert_false(hold(f, PA, STREAM + 1)); /* another stream: as any free */
    assert_int_equal(log_count(f, "\"event\":\"free_held\"", NULL), 0);
    assert_false(hold(f, PA, STREAM));
    assert_int_equal(log_count(f, "\"event\":\"free_held\"", "\"mode\":\"log\""), 1);
    tf_free_begin(f->e, PA, STREAM, "cudaFreeAsync");
    tf_free_end(f->e, PA, "cudaFreeAsync", true);
    tf_alloc(f->e, PA, PSIZE, TF_MEM_POOL); /* the pool hands the bytes on */
    tf_access a;
    tf_access_init(&a, "kernel", STREAM);
    tf_access_write(&a, mat(PA, 4, 4, 5, 4));
    tf_access_begin(f->e, &a);
    tf_access_end(f->e, &a, true);
    assert_int_equal(log_count(f, "\"event\":\"materialize\"", NULL), 0);
    assert_int_equal(tf_engine_pending(f->e), 1);
    tf_free_begin(f->e, PT, STREAM, "cudaFreeAsync");
    tf_free_end(f->e, PT, "cudaFreeAsync", true);
    assert_int_equal(log_count(f, "\"event\":\"drop\"", "dst_freed"), 1);
    assert_int_equal(freed.n + tr.runs, 0);
    fixture_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_inputs_held_until_output_fold),
        cmocka_unit_test(test_free_held_only_where_safe),
        cmocka_unit_test(test_held_frees_given_back),
        cmocka_unit_test(test_transpose_source_held),
        cmocka_unit_test(test_log_mode_shadows_a_hold),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
