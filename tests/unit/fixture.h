/* Shared fixture for the engine tests: an engine over a fake device whose
 * replays only count, and helpers that describe calls the way hooks do. */
#ifndef TF_TEST_FIXTURE_H
#define TF_TEST_FIXTURE_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"

/* A producer the hook has no objection to. */
#define NO_WHY TF_WHY_KEY(TF_R_NONE)

typedef struct fake_replay { int runs, releases, fail; uint64_t trigger; } fake_replay;

static int fake_run(void *arg, uint64_t trigger)
{
    fake_replay *f = arg;
    f->runs++;
    f->trigger = trigger;
    return f->fail;
}

static void fake_release(void *arg)
{
    ((fake_replay *)arg)->releases++;
}

static inline tf_replay replay_of(fake_replay *f)
{
    return (tf_replay){.run = fake_run, .release = fake_release, .arg = f};
}

typedef struct fixture {
    tf_engine *e;
    char *logbuf;
    size_t loglen;
    FILE *log;
} fixture;

#define DEV_BASE 0x10000000ull /* one big device allocation holds every test buffer */
#define DEV_SIZE 0x10000000ull

static inline fixture *fixture_with(tf_mode mode, tf_policy policy, tf_scales scales)
{
    fixture *f = calloc(1, sizeof *f);
    f->log = open_memstream(&f->logbuf, &f->loglen);
    tf_config cfg = {.mode = mode, .policy = policy, .log = f->log, .summary = NULL, .scales = scales};
    f->e = tf_engine_new(&cfg);
    tf_alloc(f->e, DEV_BASE, DEV_SIZE, TF_MEM_DEVICE);
    return f;
}

static inline fixture *fixture_new(tf_mode mode, tf_policy policy)
{
    return fixture_with(mode, policy, TF_SCALES_EXACT);
}

static inline void fixture_free(fixture *f)
{
    if (f->e)
        tf_engine_free(f->e);
    fclose(f->log);
    free(f->logbuf);
    free(f);
}

/* Number of log lines containing every one of the given substrings. */
static inline int log_count(fixture *f, const char *a, const char *b)
{
    fflush(f->log);
    int n = 0;
    for (char *line = f->logbuf; line && *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char tmp[1200];
        snprintf(tmp, sizeof tmp, "%.*s", (int)len, line);
        if (strstr(tmp, a) && (!b || strstr(tmp, b)))
            n++;
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* A free that succeeds, as the hooks report it. */
static inline void free_ok(tf_engine *e, uint64_t base, uint64_t stream)
{
    tf_free_begin(e, base, stream, "cudaFree");
    tf_free_end(e, base, "cudaFree", true);
}

static inline tf_view mat(uint64_t addr, uint32_t elem, int64_t rows, int64_t cols, int64_t ld)
{
    return (tf_view){.addr = addr, .elem = elem, .rows = rows, .cols = cols, .ld = ld, .batch = 1, .stride = 0};
}

/* dst (rows x cols, ldd) = alpha * op(src), src stored cols x rows with lds. */
static inline tf_transpose_desc transpose_desc(uint64_t src, int64_t lds, uint64_t dst, int64_t ldd,
                                               int64_t rows, int64_t cols, uint32_t elem)
{
    tf_transpose_desc d = {.producer = "cublasSgeam", .name = "cublasSgeam", .dtype = "f32",
                           .src = mat(src, elem, cols, rows, lds), .dst = mat(dst, elem, rows, cols, ldd),
                           .alpha = {1.0, 0.0, true}, .stream = 7};
    return d;
}

/* C(m x n) = A * B with A read through op a (stored view given). */
static inline tf_gemm gemm_desc(tf_view a, tf_op opa, tf_view b, tf_op opb, tf_view c, int64_t m, int64_t n, int64_t k)
{
    tf_gemm g = {.acc = {.api = "cublasSgemm", .stream = 7}, .dtype = "f32", .m = m, .n = n, .k = k,
                 .alpha_host = true, .nin = 2};
    g.in[0] = (tf_operand){.role = "A", .v = a, .op = opa};
    g.in[1] = (tf_operand){.role = "B", .v = b, .op = opb};
    tf_access_write(&g.acc, c);
    return g;
}

#endif
