/* Replays on the program's own cuBLAS handle (program_handle.h). */
#include "cublas/program_handle.h"

/* The workspace a replay wants differs from the one h has once its stream
 * is `on` (a stream change resets it to the library's own). */
static bool ws_differs(const pl_handle_settings *want, bool stream_changed, void *ws, size_t size)
{
    void *now = stream_changed ? NULL : ws;
    return want && (want->ws != now || (now && want->ws_size != size));
}

int pl_on_program_handle(cublasHandle_t h, cudaStream_t on, const pl_handle_settings *want, int (*call)(void *),
                         void *arg)
{
    cudaStream_t old_stream = NULL;
    cublasPointerMode_t old_mode = CUBLAS_POINTER_MODE_HOST;
    void *ws = NULL;
    size_t ws_size = 0;
    TF_REAL(cublasGetStream_v2)(h, &old_stream);
    TF_REAL(cublasGetPointerMode_v2)(h, &old_mode);
    pl_handle_ws_now(h, &ws, &ws_size);
    bool stream_changed = old_stream != on;
    bool ws_changed = ws_differs(want, stream_changed, ws, ws_size);
    /* The library's own workspace back: only cublasSetStream does that. */
    if (stream_changed || (ws_changed && !want->ws))
        TF_REAL(cublasSetStream_v2)(h, on);
    if (ws_changed && want->ws)
        pl_handle_ws_apply(h, want->ws, want->ws_size);
    if (old_mode != CUBLAS_POINTER_MODE_HOST)
        TF_REAL(cublasSetPointerMode_v2)(h, CUBLAS_POINTER_MODE_HOST);
    pl_handle_saved saved = { .changed = 0 };
    if (want)
        pl_handle_settings_apply(h, want, &saved);
    int st = call(arg);
    pl_handle_settings_restore(h, &saved);
    if (old_mode != CUBLAS_POINTER_MODE_HOST)
        TF_REAL(cublasSetPointerMode_v2)(h, old_mode);
    if (stream_changed || ws_changed) {
        TF_REAL(cublasSetStream_v2)(h, old_stream);
        pl_handle_ws_apply(h, ws, ws_size);
    }
    return st;
}
