/* The tables the runtime itself calls into (export.h): modules from its
 * fat binaries, the primary context, tool-callback buffers and two checks.
 * Slot signatures are ZLUDA's reading of them; slots nobody has seen
 * called answer through sim_export_unknown_slot. */
#include "export.h"

#include <string.h>

/* Each table's answer for a slot the stand-in does not know. */
#define UNKNOWN_SLOT(table)                                                           \
    static CUresult unknown_##table(void) { return sim_export_unknown_slot(&sim_export_##table); }
UNKNOWN_SLOT(cudart)
UNKNOWN_SLOT(tools_tls)
UNKNOWN_SLOT(tools_hooks)
UNKNOWN_SLOT(checks)
#define U(table) (void *)unknown_##table

/* ---- {6BD5FB6C-5BF4-E74A-8987-D93912FD9DF9}: the runtime interface ---- */

/* nvcc's wrapper of a fat binary: {magic, version, data, ...}. */
struct fatbinc_wrapper { int magic, version; const void *data; const void *rest; };
#define FATBINC_MAGIC 0x466243b1

/* A fat binary becomes a module of the stand-in: kernels then resolve
 * against their twins by name (module.c), as for cuModuleLoadFatBinary. */
static CUresult module_from_wrapper(CUmodule *module, const struct fatbinc_wrapper *w)
{
    if (!module || !w)
        return CUDA_ERROR_INVALID_VALUE;
    return cuModuleLoadFatBinary(module, w->magic == FATBINC_MAGIC ? w->data : (const void *)w);
}

/* Slots 6 and 8 add arguments (JIT options, as far as anyone knows) that
 * change nothing on a stand-in that never compiles device code. */
static CUresult module_from_wrapper_ext(CUmodule *module, const struct fatbinc_wrapper *w, void *a3, void *a4,
                                        unsigned a5)
{
    (void)a3, (void)a4, (void)a5;
    return module_from_wrapper(module, w);
}

static CUresult module_from_fatbin_ext(const void *fatbin, CUmodule *module, void *a3, void *a4, unsigned a5)
{
    (void)a3, (void)a4, (void)a5;
    if (!module || !fatbin)
        return CUDA_ERROR_INVALID_VALUE;
    return cuModuleLoadFatBinary(module, fatbin);
}

/* The device's primary context, without taking a reference (the runtime
 * retains it through cuDevicePrimaryCtxRetain). */
static CUresult primary_context(CUcontext *ctx, CUdevice dev)
{
    CUresult r = sim_device_query(ctx, dev);
    if (r == CUDA_SUCCESS)
        *ctx = sim_primary_ctx();
    return r;
}

static CUresult slot7(size_t arg) { (void)arg; return CUDA_SUCCESS; }

/* Nothing to load: the stand-in never compiles device code. */
static CUresult load_compilers(void) { return CUDA_SUCCESS; }

static void *cudart[13] = {
    SIM_TABLE_SIZE(13), (void *)module_from_wrapper, (void *)primary_context, U(cudart), U(cudart), U(cudart),
    (void *)module_from_wrapper_ext, (void *)slot7, (void *)module_from_fatbin_ext, U(cudart), U(cudart),
    U(cudart), (void *)load_compilers,
};
const struct sim_export sim_export_cudart = {"6bd5fb6c-5bf4-e74a-8987-d93912fd9df9", cudart};

/* ---- {42D85A81-23F6-CB47-8298-F6E78A3AECDC}: tools thread-local storage ---- */

static void *tools_tls[4] = {SIM_TABLE_SIZE(4), U(tools_tls), U(tools_tls), U(tools_tls)};
const struct sim_export sim_export_tools_tls = {"42d85a81-23f6-cb47-8298-f6e78a3aecdc", tools_tls};

/* ---- {A094798C-2E74-2E74-93F2-0800200C0A66}: tools runtime callback hooks ----
 * Two buffers the runtime fills for profilers (no profiler reads them
 * here); each is given 8 bytes an entry, the wider of the readings. */
static uint64_t hooks_buffer1[1024], hooks_buffer2[14];

static void hooks_get_buffer1(void **p, size_t *n)
{
    *p = hooks_buffer1;
    *n = sizeof hooks_buffer1 / sizeof hooks_buffer1[0];
}

static void hooks_get_buffer2(void **p, size_t *n)
{
    *p = hooks_buffer2;
    *n = sizeof hooks_buffer2 / sizeof hooks_buffer2[0];
}

static void *tools_hooks[7] = {
    SIM_TABLE_SIZE(7), U(tools_hooks), (void *)hooks_get_buffer1, U(tools_hooks), U(tools_hooks), U(tools_hooks),
    (void *)hooks_get_buffer2,
};
const struct sim_export sim_export_tools_hooks = {"a094798c-2e74-2e74-93f2-0800200c0a66", tools_hooks};

/* ---- {263E8860-7CD2-6143-92F6-BBD5006DFA7E}: checks ----
 * Whether a context is a wrapped one (never, here) and a flag word that a
 * real driver leaves 0. */
static CUresult context_check(CUcontext ctx, uint32_t *wrapped, const void **unwrapped)
{
    (void)ctx, (void)unwrapped;
    if (!wrapped)
        return CUDA_ERROR_INVALID_VALUE;
    *wrapped = 0;
    return CUDA_SUCCESS;
}

static uint32_t check_flags(void) { return 0; }

static void *checks[4] = {SIM_TABLE_SIZE(4), U(checks), (void *)context_check, (void *)check_flags};
const struct sim_export sim_export_checks = {"263e8860-7cd2-6143-92f6-bbd5006dfa7e", checks};
