/* Writing what was learned as kernel rules (transfold learn -o FILE). */
#ifndef TF_LEARN_RULES_H
#define TF_LEARN_RULES_H
#include <stddef.h>

#include "engine.h"

/* Remembers how fn's parameters are laid out (offsets, sizes), for the
 * rules written at exit; only candidates' functions are remembered. */
void pl_learn_layout_note(const void *fn, const size_t *offs, const size_t *sizes, int n);
/* Writes one rule per trusted signature into path (replacing it). */
void pl_learn_write_rules(tf_engine *e, const char *path);

#endif
