/* TRANSFOLD_* parsing. Any value we do not understand turns the layer off
 * rather than guessing: a pass-through run is always correct. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

static void pass_through(pl_env *env, const char *var, const char *val, const char *expected)
{
    fprintf(stderr, "transfold: %s=%s is not one of %s; running as pass-through\n", var, val, expected);
    env->mode = TF_MODE_OFF;
}

/* Index of `val` in the NULL-terminated `names`, or -1. */
static int pick(const char *val, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(val, names[i]) == 0)
            return i;
    return -1;
}

/* secure_getenv: in a setuid or setcap program the environment is the
 * caller's, and TRANSFOLD_LOG / _SUMMARY / _RULES name files to write and
 * read: there every variable reads as unset. */
static const char *env_or_null(const char *var)
{
    const char *v = secure_getenv(var);
    return v && *v ? v : NULL;
}

/* Reads an enumerated variable into *out (unchanged when unset). */
static void read_choice(pl_env *env, const char *var, const char *const *names,
                        const char *expected, int *out)
{
    const char *v = env_or_null(var);
    if (!v)
        return;
    int i = pick(v, names);
    if (i < 0)
        pass_through(env, var, v, expected);
    else
        *out = i;
}

/* A positive integer variable into *out (unchanged when unset). */
static void read_count(pl_env *env, const char *var, unsigned long long max, unsigned long long *out)
{
    const char *v = env_or_null(var);
    if (!v)
        return;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end || n == 0 || n > max || v[0] == '-') {
        fprintf(stderr, "transfold: %s=%s is not a positive integer up to %llu; running as pass-through\n", var, v,
                max);
        env->mode = TF_MODE_OFF;
    } else {
        *out = n;
    }
}

static void read_learn(pl_env *env)
{
    static const char *const onoff[] = { "0", "1", NULL };
    int learn = 0;
    unsigned long long k = 2, cands = 64;
    env->learn_max_bytes = 1ull << 30; /* the seed's 283 MB weight pair fits; host memory: 3x */
    read_choice(env, "TRANSFOLD_LEARN", onoff, "0, 1", &learn);
    read_count(env, "TRANSFOLD_LEARN_K", 1000, &k);
    read_count(env, "TRANSFOLD_LEARN_MAX_BYTES", 1ull << 40, &env->learn_max_bytes);
    read_count(env, "TRANSFOLD_LEARN_MAX_CANDIDATES", 4096, &cands);
    env->learn = learn == 1;
    env->learn_k = (int)k;
    env->learn_max_candidates = (int)cands;
    env->learn_out = env_or_null("TRANSFOLD_LEARN_OUT");
}

pl_env pl_env_read(void)
{
    static const char *const modes[] = { "fold", "log", "off", NULL };
    static const char *const policies[] = { "strict", "args", NULL };
    static const char *const verify[] = { "0", "1", NULL };
    static const char *const scales[] = { "exact", "pow2", NULL };
    pl_env env = { .mode = TF_MODE_FOLD, .policy = TF_POLICY_STRICT, .summary_path = "-" };
    int mode = TF_MODE_FOLD, policy = TF_POLICY_STRICT, ver = 0, sc = TF_SCALES_EXACT, out = 1;

    read_choice(&env, "TRANSFOLD_POLICY", policies, "strict, args", &policy);
    read_choice(&env, "TRANSFOLD_VERIFY", verify, "0, 1", &ver);
    read_choice(&env, "TRANSFOLD_SCALES", scales, "exact, pow2", &sc);
    read_choice(&env, "TRANSFOLD_OUTPUT_FOLD", verify, "0, 1", &out); /* on unless 0 */
    env.output_fold = out == 1;
    int hold = 1;
    env.hold_max_bytes = 1ull << 30;
    read_choice(&env, "TRANSFOLD_HOLD_FREES", verify, "0, 1", &hold); /* on unless 0 */
    read_count(&env, "TRANSFOLD_HOLD_MAX_BYTES", 1ull << 50, &env.hold_max_bytes);
    env.hold_frees = hold == 1;
    env.scales = (tf_scales)sc;
    env.policy = (tf_policy)policy;
    env.verify = ver == 1;
    env.log_path = env_or_null("TRANSFOLD_LOG");
    env.rules = env_or_null("TRANSFOLD_RULES");
    read_learn(&env);
    const char *summary = env_or_null("TRANSFOLD_SUMMARY");
    if (summary)
        env.summary_path = strcmp(summary, "none") == 0 ? NULL : strcmp(summary, "stderr") == 0 ? "-" : summary;
    if (env.mode == TF_MODE_OFF)
        return env; /* an earlier bad value wins */
    read_choice(&env, "TRANSFOLD_MODE", modes, "fold, log, off", &mode);
    if (env.mode != TF_MODE_OFF)
        env.mode = (tf_mode)mode;
    env.learn = env.learn || env.learn_out || env.mode == TF_MODE_LOG; /* diagnosis reports proven kernels */
    return env;
}

static FILE *open_or_complain(const char *var, const char *path)
{
    FILE *f = fopen(path, "ae"); /* O_CLOEXEC: never inherited by programs the host execs */
    char msg[128];
    if (!f)
        fprintf(stderr, "transfold: %s=%s cannot be opened (%s); running as pass-through\n",
                var, path, strerror_r(errno, msg, sizeof msg));
    return f;
}

bool pl_env_open(const pl_env *env, tf_config *cfg)
{
    *cfg = (tf_config){ .mode = env->mode, .policy = env->policy, .verify = env->verify, .scales = env->scales,
                        .output_fold = env->output_fold };
    if (env->log_path && !(cfg->log = open_or_complain("TRANSFOLD_LOG", env->log_path)))
        return false;
    if (env->summary_path && strcmp(env->summary_path, "-") == 0)
        cfg->summary = stderr;
    else if (env->summary_path && !(cfg->summary = open_or_complain("TRANSFOLD_SUMMARY", env->summary_path))) {
        if (cfg->log)
            fclose(cfg->log);
        cfg->log = NULL;
        return false;
    }
    return true;
}
