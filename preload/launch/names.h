/* What launches are known by. Kernel names by handle: host stub -> device
 * name (from __cudaRegisterFunction), and any later handle (cudaKernel_t,
 * CUfunction, CUkernel) -> the same name. And host stub -> its CUkernel,
 * for parameter layouts when the runtime cannot give them. */
#ifndef TF_NAMES_H
#define TF_NAMES_H

/* `name` must outlive the process's use of the handle (registration strings
 * live in the program image; pl_name_set_copy keeps its own copy). */
void pl_name_set(const void *handle, const char *name);
void pl_name_set_copy(const void *handle, const char *name);
const char *pl_name_get(const void *handle); /* NULL when unknown */
/* Gives `alias` the name `handle` has, if any. */
void pl_name_alias(const void *alias, const void *handle);

void pl_kernel_set(const void *host_fn, const void *kernel);
const void *pl_kernel_get(const void *host_fn); /* NULL when unknown */

/* A value memoised per name string (by its address: names outlive their
 * use, above), NULL when none: launch.c keeps each name's first matching
 * kernel rule there, so a launch matches the rules once per name, not once
 * per launch. */
void pl_name_memo_set(const char *name, const void *value);
const void *pl_name_memo_get(const char *name);

/* Module identity (a hash of the image a module or library was loaded
 * from) by handle: modules, libraries, and the functions and kernels taken
 * from them; 0 when unknown. */
#include <stdint.h>
void pl_module_set(const void *handle, uint64_t identity);
uint64_t pl_module_get(const void *handle);

#endif
