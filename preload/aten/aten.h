/* ATen's launches in the preload (issue 20): which kernels are ATen's own
 * (registered by libtorch_cuda), what each is (kernel.h, parsed once from
 * its demangled name), and what one launch means (decode.h): a transposing
 * copy becomes a producer from its first launch, any other decoded launch
 * an access of exact byte ranges instead of unknown work. */
#ifndef TF_PRELOAD_ATEN_H
#define TF_PRELOAD_ATEN_H
#include <stdatomic.h>
#include <stdbool.h>

#include "aten/kernel.h"

struct pl_launch;

typedef struct pl_aten_fn {
    const char *name;   /* mangled, as registered */
    _Atomic int state;  /* 0 not parsed yet, 1 parsed, 2 not a family decoded */
    aten_kernel k;
    char label[96];     /* "at::native direct_copy (bf16)" */
} pl_aten_fn;

/* __cudaRegisterFunction: notes host_fn when libtorch_cuda registers it
 * (its code lies in that library's mapping) under a name of a family
 * decoded here. __cudaGetKernel: the kernel handle is the same kernel. */
void pl_aten_register(const void *host_fn, const char *name);
void pl_aten_alias(const void *alias, const void *handle);

/* The parsed kernel behind a launched handle, NULL when not ATen's or not
 * decoded. */
const pl_aten_fn *pl_aten_of(const void *fn);
/* Whether a launch of fn needs a look while nothing is pending: an ATen
 * plain copy (it may be a transpose). */
bool pl_aten_watch(const void *fn);

/* One launch of an ATen kernel (launch/launch.h's PL_FAMILY_*): PRODUCER
 * (l->desc deferred or run as launch_produce says), ACCESS (l->acc holds its
 * exact ranges), QUIET (nothing pending and not a transpose: nothing to
 * do), or NONE (did not validate: unknown work, as before). The registry
 * installs these as launch/'s family (PL_LAUNCH_FAMILY). */
int pl_aten_launch(struct pl_launch *l, const pl_aten_fn *a, bool *deferred);

#endif
