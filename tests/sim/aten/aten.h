/* The stand-in's twins of ATen's CUDA kernels (libsimcuda_aten.so).
 *
 * ATen's kernels are template instantiations (one per functor, dtype and
 * launch shape), so they are not twinned by exact symbol: the library
 * exports simcuda_resolve (simcuda.h), which demangles the kernel's name
 * once and asks each family below in turn. A family recognises its kernels
 * from the demangled name, works out what the instantiation does (functor,
 * dtypes, parameter layout from preload/aten/abi*.h) into a context that
 * lives for the process, and binds it with aten_bind.
 *
 * Adding a family: write tests/sim/aten/<family>.c defining
 *   bool aten_<family>_resolve(const char *demangled, simcuda_twin *out);
 * and add X(<family>) to ATEN_FAMILIES below. */
#ifndef ATEN_H
#define ATEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simcuda.h"

#define ATEN_FAMILIES(X) \
    X(elementwise) \
    X(reduce) \
    X(multi_tensor) \
    X(softmax) \
    X(layer_norm) \
    X(nll_loss) \
    X(cat) \
    X(index) \
    X(scatter_gather) \
    X(foreach_norm) \
    X(fused_adam) \
    X(fused_sgd) \
    X(random) \
    X(dropout) \
    X(randperm) \
    X(tiled)

#define ATEN_DECLARE_FAMILY(name) bool aten_##name##_resolve(const char *demangled, simcuda_twin *out);
ATEN_FAMILIES(ATEN_DECLARE_FAMILY)
#undef ATEN_DECLARE_FAMILY

/* A twin with a context: what a family's kernels share, told apart by ctx. */
typedef void (*aten_run_fn)(const void *ctx, const simcuda_launch *launch, void **params);
typedef size_t (*aten_reads_fn)(const void *ctx, const simcuda_launch *launch, void **params,
                                simcuda_range *out, size_t max);

#define ATEN_MAX_PARAMS 15
typedef struct aten_twin {
    aten_run_fn run;
    aten_reads_fn reads;   /* NULL: every allocation a parameter points into */
    const void *ctx;       /* must live for the process */
    size_t params[ATEN_MAX_PARAMS + 1]; /* parameter sizes, zero-terminated */
} aten_twin;

/* Gives t a plain simcuda_twin (a trampoline slot that passes t->ctx on).
 * False when the slots are spent (then says so once on stderr). */
bool aten_bind(const aten_twin *t, simcuda_twin *out);

/* Helpers to read demangled names. */
/* Whether s starts with prefix; *rest gets what follows. */
bool aten_starts(const char *s, const char *prefix, const char **rest);
/* The integer template argument at *s (e.g. "128, ..."), skipping ", ". */
bool aten_int_arg(const char **s, long *value);

/* A range of bytes read, appended to out[*n] while room remains. */
static inline void aten_read_range(simcuda_range *out, size_t max, size_t *n, const void *base, size_t bytes)
{
    if (base && bytes && *n < max)
        out[(*n)++] = (simcuda_range){base, bytes};
}

#endif
