/* unsupported.c: the header-derived table of every driver entry point. */
#ifndef SIM_CUDA_UNSUPPORTED_H
#define SIM_CUDA_UNSUPPORTED_H
#include <stdbool.h>

/* Whether the CUDA headers name `name` as an entry point; if so, and one of
 * its versions is <= version, *fn is the stand-in's not-supported function
 * for it (else *fn is NULL). */
__attribute__((visibility("hidden"))) bool sim_header_entry(const char *name, int version, void **fn);

#endif
