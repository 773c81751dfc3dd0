/* A shadow for a descriptor that has none, read back from the library
 * (rebuild.c). */
#ifndef PL_LT_REBUILD_H
#define PL_LT_REBUILD_H
#include "lt/descriptors.h"

/* Gives d a shadow of `kind` when it has no slot: what the library says
 * it holds, or an opaque one when that cannot be read. */
void lt_rebuild(lt_kind kind, const void *d);

#endif
