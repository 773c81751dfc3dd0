/* The settings of a cuBLAS handle a GEMM's result depends on, beyond its
 * arguments: read when a GEMM is deferred, put back around its replay. */
#ifndef TF_CUBLAS_HANDLE_SETTINGS_H
#define TF_CUBLAS_HANDLE_SETTINGS_H
#include <stdbool.h>
#include <stdint.h>

#include "tables/hooks.h"

/* Math mode, atomics mode, SM count target and the emulation settings
 * (cublas_api.h's setters with a getter; PL_HS_N of them), as ints. */
#define PL_HS_N 8
typedef struct pl_handle_settings {
    int32_t v[PL_HS_N];
    uint32_t have;      /* bit i: v[i] was read (the library has that setting) */
    void *ws;           /* the workspace set by cublasSetWorkspace, NULL: the library's own */
    size_t ws_size;
} pl_handle_settings;

/* h's settings now; false when they cannot all be known (a workspace
 * set on a handle beyond the table, a mantissa bit-count pointer cuBLAS
 * would write through): then the GEMM is not deferred. */
bool pl_handle_settings_read(cublasHandle_t h, pl_handle_settings *s);

/* What the program did to h's workspace (cublasSetWorkspace, and
 * cublasSetStream, which resets it to the library's own; destroy). */
void pl_handle_ws_set(cublasHandle_t h, void *ws, size_t size);
void pl_handle_ws_forget(cublasHandle_t h);

/* want's settings (not the workspace) set on h where they differ from
 * h's, `saved` filled with what h had, so that pl_handle_settings_restore
 * puts those back. */
typedef struct pl_handle_saved { pl_handle_settings s; uint32_t changed; } pl_handle_saved;
void pl_handle_settings_apply(cublasHandle_t h, const pl_handle_settings *want, pl_handle_saved *saved);
void pl_handle_settings_restore(cublasHandle_t h, const pl_handle_saved *saved);
/* The program's workspace of h now (the table's), and setting one for a
 * replay (ws NULL: the library's own, which only cublasSetStream brings
 * back: the caller sets the stream again). */
void pl_handle_ws_now(cublasHandle_t h, void **ws, size_t *size);
void pl_handle_ws_apply(cublasHandle_t h, void *ws, size_t size);

#endif
