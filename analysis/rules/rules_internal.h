/* Internal: a parsed rule. Shared by the parser and the launch describer. */
#ifndef TF_RULES_INTERNAL_H
#define TF_RULES_INTERNAL_H
#include <stdint.h>

#include "rules/rules.h"

#define TF_RULE_MAX_PARAMS 64

typedef enum { F_NONE, F_PARAM, F_LITERAL } fkind;
typedef enum { T_PTR, T_I32, T_I64, T_U32, T_U64 } ftype;
enum { K_IN, K_OUT, K_ROWS, K_COLS, K_LD_IN, K_LD_OUT, K_BATCH, K_STRIDE_IN, K_STRIDE_OUT, K_N };

typedef struct field {
    fkind kind;
    ftype type;
    int index;
    bool has_off;
    long off;
    int64_t lit;
} field;

/* if=P@OFF:TYPE=VALUE: the launch matches only when that value is there. */
typedef struct guard {
    int index;
    long off;
    int width;       /* bytes: 1, 2, 4, 8 */
    uint64_t value;  /* the bytes, little-endian, as an unsigned number */
} guard;

struct tf_rule {
    char *glob;
    field f[K_N];
    uint32_t elem;
    size_t sig[TF_RULE_MAX_PARAMS];
    int nsig;
    guard *guards;   /* rule_guard.c */
    int nguards;
    bool has_module;
    uint64_t module; /* module=: the identity of the image the kernel came from */
    uint64_t threads;/* threads=: the fewest threads a launch may have */
};

/* rule_guard.c: keys beyond the shape (if=, module=, threads=). True when
 * `key` is one of them; *err is then NULL or the problem. */
bool rule_extra_key(tf_rule *r, const char *key, const char *value, const char **err);

/* In file order. tf_rules_match walks them (fnmatch each): the preload
 * asks once per kernel name and remembers the answer (launch.c), so a
 * launch costs O(1) in the number of rules, plus, for a name that has a
 * rule, the guards of the rules from that first match on. */
struct tf_rules {
    tf_rule *v;
    size_t n, cap;
};

#endif
