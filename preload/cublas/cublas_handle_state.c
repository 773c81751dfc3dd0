/* A cuBLAS handle's stream and pointer mode, as every described call asks
 * them: remembered per thread for the last handle asked about, instead of
 * two calls into cuBLAS a call.
 *
 * Invalidation: a handle's stream and pointer mode change only through
 * cublasSetStream_v2 and cublasSetPointerMode_v2 (hooked here; dlsym and
 * cuGetProcAddress hand out these wrappers too), and a handle's address
 * can only name another handle after cublasDestroy_v2. Each of them bumps
 * one process-wide epoch after the real call returns (destroy also
 * before), and a remembered answer counts only while the epoch is the one
 * read before the answer was asked. So an answer is used only when no
 * change completed since it was asked: any set that returned before a
 * described call began bumped the epoch before that call read it, so
 * either the answer was asked after the set (and reflects it) or the epoch
 * moved (and the answer is asked again). Transfold's own replays set the
 * program's handle only when its own handle cannot be had, and put the
 * settings back before they return (cublas_geam.c), so they leave what is
 * remembered true. A program that changes a handle while another thread
 * calls with it races with itself; it gets one of the two answers, as it
 * did when cuBLAS was asked. Cost: one relaxed TLS compare and one atomic
 * load a call; a program that sets the stream before every call (PyTorch
 * does) asks cuBLAS as before. */
#include <stdatomic.h>

#include "calls/describe.h"
#include "cublas/handle_settings.h"
#include "core/state.h"
#include "tables/hooks.h"

static _Atomic uint64_t handle_epoch;

typedef struct handle_seen {
    cublasHandle_t h;
    uint64_t epoch;
    cudaStream_t stream;
    uint64_t id;                 /* TF_STREAM(stream), when has_id */
    bool has_stream, has_id, has_mode, host;
} handle_seen;
static __thread handle_seen seen __attribute__((tls_model("initial-exec")));

/* The entry for h as of epoch `now` (emptied when it was another's). */
static handle_seen *entry(cublasHandle_t h, uint64_t now)
{
    if (seen.h != h || seen.epoch != now)
        seen = (handle_seen){ .h = h, .epoch = now };
    return &seen;
}

static uint64_t epoch_now(void)
{
    return atomic_load_explicit(&handle_epoch, memory_order_acquire);
}

static void epoch_bump(void)
{
    atomic_fetch_add_explicit(&handle_epoch, 1, memory_order_acq_rel);
}

/* Whether the entry answers for h as of epoch `now`. */
static bool current(cublasHandle_t h, uint64_t now)
{
    return seen.h == h && seen.epoch == now;
}

/* The stream's id is remembered too when it cannot depend on the current
 * device (pl_stream_id_fixed): the entry is this thread's, and the id
 * depends on nothing else. Out of line, as below: a remembered answer is
 * returned without a stack frame. */
static TF_SLOW_PATH uint64_t stream_asked(cublasHandle_t h, uint64_t now)
{
    handle_seen *s = entry(h, now);
    if (!s->has_stream) {
        cudaStream_t raw = NULL;
        pl_fn_cublasGetStream_v2 get = TF_REAL(cublasGetStream_v2);
        if (get && get(h, &raw) == CUBLAS_STATUS_SUCCESS) {
            s->stream = raw;
            s->has_stream = true;
        }
        if (!s->has_stream)
            return TF_STREAM(raw); /* as before: NULL when cuBLAS cannot say */
    }
    s->id = TF_STREAM(s->stream);
    s->has_id = pl_stream_id_fixed(TF_ADDR(s->stream));
    return s->id;
}

uint64_t pl_cublas_stream(cublasHandle_t h)
{
    uint64_t now = epoch_now();
    if (current(h, now) && seen.has_id)
        return seen.id;
    return stream_asked(h, now);
}

static TF_SLOW_PATH bool host_pointers_asked(cublasHandle_t h, uint64_t now)
{
    handle_seen *s = entry(h, now);
    cublasPointerMode_t mode = CUBLAS_POINTER_MODE_DEVICE;
    pl_fn_cublasGetPointerMode_v2 get = TF_REAL(cublasGetPointerMode_v2);
    if (!get || get(h, &mode) != CUBLAS_STATUS_SUCCESS)
        return false;
    s->host = mode == CUBLAS_POINTER_MODE_HOST;
    s->has_mode = true;
    return s->host;
}

/* Device pointer mode hides alpha/beta from us: nothing is read or folded. */
bool pl_cublas_host_pointers(cublasHandle_t h)
{
    uint64_t now = epoch_now();
    if (current(h, now) && seen.has_mode)
        return seen.host;
    return host_pointers_asked(h, now);
}

void pl_cublas_handle_changed(void)
{
    epoch_bump();
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream)
{
    TF_REAL_OR(cublasSetStream_v2, TF_MISSING_CUBLAS);
    cublasStatus_t st = TF_PASS(real(h, stream));
    epoch_bump();
    if (st == CUBLAS_STATUS_SUCCESS)
        pl_handle_ws_set(h, NULL, 0); /* cuBLAS went back to its own workspace */
    return st;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode)
{
    TF_REAL_OR(cublasSetPointerMode_v2, TF_MISSING_CUBLAS);
    cublasStatus_t st = TF_PASS(real(h, mode));
    epoch_bump();
    return st;
}
