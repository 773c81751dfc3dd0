/* Block scale factor addressing (scale.c). */
#ifndef SIMLT_SCALE_H
#define SIMLT_SCALE_H
#include "elem.h"
#include "simlt.h"

/* Byte offset of the 8-bit factor of block `block` of outer index `outer`. */
SIM_HIDDEN_FN int64_t sim_bscale_index(const sim_bscale *s, int64_t outer, int64_t block);
/* The factor that scales element `inner` of outer index `outer`. */
SIM_HIDDEN_FN float sim_bscale_at(const sim_bscale *s, int64_t outer, int64_t inner);
/* Size in bytes of the (padded) factor array of `outer` outer indices. */
SIM_HIDDEN_FN int64_t sim_bscale_bytes(const sim_bscale *s, int64_t outer);

#endif
