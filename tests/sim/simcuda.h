/* The CPU stand-in's public contract with test programs.
 *
 * A kernel whose device (mangled) name is N runs, on the stand-in, the CPU
 * twin exported as `simcuda_kernel_<N>` from one of the shared objects listed
 * in SIMCUDA_KERNELS (colon-separated). Next to each twin, a zero-terminated
 * array `simcuda_params_<N>` gives the size in bytes of each parameter, the
 * way the driver's cuFuncGetParamInfo would report them.
 *
 * Environment of the stand-in:
 *   SIMCUDA_KERNELS  twin libraries (colon-separated paths)
 *   SIMCUDA_TRACE    append one JSON object a line for every device operation
 *                    executed: {"op":"<API name>", ...}; kernels are
 *                    {"op":"kernel","name":"<device name>", ...}
 *   SIMCUDA_NOOP=1   skip the arithmetic of device work (benchmarks only)
 *   SIMCUDA_UNSUPPORTED=1  name on stderr (once each) the driver entry points
 *                    called that the stand-in cannot do; cuGetProcAddress
 *                    resolves every entry point of the CUDA headers, and
 *                    those answer CUDA_ERROR_NOT_SUPPORTED
 *   SIMCUDA_ASYNC=1  queue device work per stream and run it in an order a
 *                    GPU could (SIMCUDA_SCHED_SEED picks it); see README
 *   SIMCUDA_RACE=report|abort  report unordered conflicting accesses
 *
 * Optionally, next to a twin, `simcuda_reads_<N>` says which bytes the
 * kernel reads (the race detector then checks exactly those; without it,
 * every allocation a parameter points into counts as read). Writes are
 * found by comparing memory before and after the launch.
 *
 * Families of kernels (templates instantiated over many types, as ATen's)
 * cannot export one symbol per instantiation. When no exact symbol names a
 * kernel, each SIMCUDA_KERNELS library (then the process) may export
 *   bool simcuda_resolve(const char *mangled, simcuda_twin *out);
 * which fills `out` and returns true when it has a twin for that kernel.
 * `param_sizes` (zero-terminated) must live as long as the process. A
 * kernel nobody resolves fails its launches with CUDA_ERROR_NOT_FOUND and
 * one stderr line naming it, demangled, once per kernel.
 */
#ifndef SIMCUDA_H
#define SIMCUDA_H
#include <stdbool.h>
#include <stddef.h>

typedef struct simcuda_launch { unsigned grid[3]; unsigned block[3]; size_t shared_mem; } simcuda_launch;
typedef void (*simcuda_kernel_fn)(const simcuda_launch *launch, void **params);

/* Byte ranges a launch reads: fills at most `max`, returns how many. */
typedef struct simcuda_range { const void *base; size_t bytes; } simcuda_range;
typedef size_t (*simcuda_reads_fn)(const simcuda_launch *launch, void **params, simcuda_range *out, size_t max);
#define SIMCUDA_READS(name) \
    size_t simcuda_reads_##name(const simcuda_launch *launch, void **params, simcuda_range *out, size_t max)

typedef struct simcuda_twin {
    simcuda_kernel_fn fn;
    const size_t *param_sizes; /* zero-terminated, lives for the process */
    simcuda_reads_fn reads;    /* NULL: every allocation a parameter points into */
} simcuda_twin;
typedef bool (*simcuda_resolve_fn)(const char *mangled, simcuda_twin *out);

/* Declares a twin and its parameter sizes in one place:
 *   SIMCUDA_TWIN(_Z15transpose_naivePfPKfii, 8, 8, 4, 4) { ...body using launch, params... } */
#define SIMCUDA_TWIN(name, ...)                                                   \
    const size_t simcuda_params_##name[] = {__VA_ARGS__, 0};                      \
    void simcuda_kernel_##name(const simcuda_launch *launch, void **params)

#endif
