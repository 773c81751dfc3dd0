/* Kernel rules: which kernels are transposes, and where their operands live
 * in the parameter bytes. One rule a line (docs/design.md "Kernel rules"):
 *
 *   <name-glob> in=<field> out=<field> rows=<field> cols=<field> elem=<bytes>
 *               [ld_in= ld_out= batch= stride_in= stride_out=] [sig=4,8,...]
 *
 * A field is P (parameter index) or P@OFF (byte offset inside a struct
 * parameter), with an optional :TYPE (ptr, i32, i64, u32, u64), or a literal
 * #N. The meaning is row-major: out[c*ld_out + r] = in[r*ld_in + c]. */
#ifndef TF_RULES_H
#define TF_RULES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

typedef struct tf_rules tf_rules;
typedef struct tf_rule tf_rule;

/* Parses one file's text. On error returns NULL and writes
 * "<file>:<line>: <problem>" into err. */
tf_rules *tf_rules_parse(const char *text, const char *file, char *err, size_t errlen);
/* Loads colon-separated paths into one rule set; NULL and err on any error. */
tf_rules *tf_rules_load(const char *paths, char *err, size_t errlen);
void tf_rules_free(tf_rules *rs);
size_t tf_rules_count(const tf_rules *rs);

/* The first rule whose glob matches the kernel's device name, or NULL.
 * Linear in the number of rules: a fixed configuration, not something that
 * grows while the program runs (how many kernels it launched does not
 * matter). */
const tf_rule *tf_rules_match(const tf_rules *rs, const char *name);
/* From `first` (a match of tf_rules_match) on, the first rule whose glob
 * matches and whose guards hold for the launch: every if= value in its
 * parameters, module= equal to `module` (the identity of the image the
 * kernel came from, 0 when unknown). NULL when none. */
const tf_rule *tf_rules_match_launch(const tf_rules *rs, const tf_rule *first, const char *name, uint64_t module,
                                     void *const *params, const size_t *sizes, int nparams);
/* Whether a launch of `threads` threads can write all `elements` of the
 * rule's footprint: at least threads= when the rule gives it, else at most
 * TF_RULE_ELEMS_PER_THREAD elements a thread. */
#define TF_RULE_ELEMS_PER_THREAD 16
bool tf_rule_covers(const tf_rule *r, uint64_t threads, uint64_t elements);
/* Parameter sizes from the rule's sig=, or NULL (count in *n). */
const size_t *tf_rule_sig(const tf_rule *r, int *n);

/* Reads the rule's fields from a launch's parameters (params[i] points at
 * parameter i, sizes[i] is its size in bytes) and fills the record's views.
 * False, with why, when the values make no transpose we can describe. */
bool tf_rule_describe(const tf_rule *r, const char *name, void *const *params, const size_t *sizes, int nparams,
                      tf_transpose_desc *d, tf_reason *why);

#endif
