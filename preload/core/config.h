/* The TRANSFOLD_* environment, read once at load time. */
#ifndef TF_PRELOAD_CONFIG_H
#define TF_PRELOAD_CONFIG_H
#include <stdbool.h>

#include "engine.h"

typedef struct pl_env {
    tf_mode mode;
    tf_policy policy;
    const char *log_path;     /* NULL: no event log */
    const char *summary_path; /* NULL: none; "-": stderr */
    const char *rules;        /* colon-separated rule files, or NULL */
    bool verify;
    tf_scales scales;
    bool output_fold;         /* on unless TRANSFOLD_OUTPUT_FOLD=0 */
    bool hold_frees;          /* on unless TRANSFOLD_HOLD_FREES=0 (streams/held_free.c) */
    unsigned long long hold_max_bytes; /* TRANSFOLD_HOLD_MAX_BYTES */
    bool learn;               /* TRANSFOLD_LEARN=1, or log mode */
    int learn_k;              /* TRANSFOLD_LEARN_K */
    unsigned long long learn_max_bytes;   /* TRANSFOLD_LEARN_MAX_BYTES */
    int learn_max_candidates; /* TRANSFOLD_LEARN_MAX_CANDIDATES */
    const char *learn_out;    /* TRANSFOLD_LEARN_OUT: learned rules written here at exit */
} pl_env;

/* Parses the environment. A bad value prints one line naming it and yields
 * mode off, so the program runs untouched. */
pl_env pl_env_read(void);

/* Opens the files the engine writes to. False (after one line on stderr)
 * when one cannot be opened; the caller then runs as pass-through. */
bool pl_env_open(const pl_env *env, tf_config *cfg);

#endif
