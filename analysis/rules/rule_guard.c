/* Rule guards: a rule matches only the launches it is meant for.
 *   if=P@OFF:TYPE=VALUE   that parameter value (TYPE u8 u16 u32 u64 i32 i64;
 *                         VALUE decimal or 0x hex), repeatable
 *   module=HEX            the kernel's module: a hash of the image given to
 *                         cuModuleLoadData* / cuLibraryLoadData
 *   threads=N             a launch needs at least N threads to be the
 *                         transpose (launch coverage)
 * Learned rules (transfold learn) use all three; hand-written ones may. */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules_internal.h"

#define MAX_GUARDS 256

static bool parse_u64(const char *s, bool is_signed, int width, uint64_t *out)
{
    char *end;
    errno = 0;
    if (is_signed) {
        long long v = strtoll(s, &end, 0);
        int64_t lo = width == 4 ? INT32_MIN : INT64_MIN, hi = width == 4 ? INT32_MAX : INT64_MAX;
        if (errno || end == s || *end || v < lo || v > hi)
            return false;
        *out = width == 8 ? (uint64_t)v : (uint64_t)(uint32_t)(int32_t)v;
        return true;
    }
    if (*s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || *end || (width < 8 && v >> (8 * width)))
        return false;
    *out = v;
    return true;
}

static const char *guard_parse(tf_rule *r, const char *value)
{
    static const struct { const char *name; int width; bool is_signed; } types[] = {
        { "u8", 1, false }, { "u16", 2, false }, { "u32", 4, false }, { "u64", 8, false },
        { "i32", 4, true }, { "i64", 8, true } };
    char buf[128];
    if (strlen(value) >= sizeof buf)
        return "if= is too long";
    strcpy(buf, value);
    char *eq = strchr(buf, '='), *colon = strchr(buf, ':'), *at = strchr(buf, '@');
    if (!eq || !colon || colon > eq)
        return "if= must be P@OFF:TYPE=VALUE";
    *eq = *colon = 0;
    if (at)
        *at = 0;
    guard g = { 0 };
    int t = 0;
    while (t < 6 && strcmp(colon + 1, types[t].name))
        t++;
    uint64_t idx, off = 0;
    if (t == 6)
        return "if=: unknown type (u8, u16, u32, u64, i32, i64)";
    if (!parse_u64(buf, false, 8, &idx) || idx >= TF_RULE_MAX_PARAMS || (at && !parse_u64(at + 1, false, 8, &off)) ||
        off > 1u << 20)
        return "if=: expected a parameter P or P@OFF before ':'";
    g.index = (int)idx, g.off = (long)off, g.width = types[t].width;
    if (!parse_u64(eq + 1, types[t].is_signed, g.width, &g.value))
        return "if=: the value does not fit its type";
    if (r->nguards >= MAX_GUARDS)
        return "too many if= guards";
    guard *v = realloc(r->guards, (size_t)(r->nguards + 1) * sizeof *v);
    if (!v)
        return "out of memory";
    r->guards = v;
    r->guards[r->nguards++] = g;
    return NULL;
}

bool rule_extra_key(tf_rule *r, const char *key, const char *value, const char **err)
{
    uint64_t n;
    *err = NULL;
    if (strcmp(key, "if") == 0) {
        *err = guard_parse(r, value);
        return true;
    }
    if (strcmp(key, "module") == 0) {
        if (r->has_module)
            *err = "duplicate key 'module'";
        else if (strlen(value) != 16 || strspn(value, "0123456789abcdef") != 16)
            *err = "module= must be the 16 hex digits of a module identity";
        else
            r->module = strtoull(value, NULL, 16);
        r->has_module = *err == NULL;
        return true;
    }
    if (strcmp(key, "threads") == 0) {
        if (r->threads)
            *err = "duplicate key 'threads'";
        else if (!parse_u64(value, false, 8, &n) || n == 0)
            *err = "threads= must be a positive number of threads";
        else
            r->threads = n;
        return true;
    }
    return false;
}

static bool guard_holds(const guard *g, void *const *params, const size_t *sizes, int nparams)
{
    if (g->index >= nparams || !params[g->index] || !sizes || sizes[g->index] < (size_t)g->off + (size_t)g->width)
        return false;
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)params[g->index] + g->off, (size_t)g->width);
    return v == g->value;
}

static bool holds(const tf_rule *r, uint64_t module, void *const *params, const size_t *sizes, int nparams)
{
    if (r->has_module && r->module != module)
        return false;
    for (int i = 0; i < r->nguards; i++)
        if (!guard_holds(&r->guards[i], params, sizes, nparams))
            return false;
    return true;
}

const tf_rule *tf_rules_match_launch(const tf_rules *rs, const tf_rule *first, const char *name, uint64_t module,
                                     void *const *params, const size_t *sizes, int nparams)
{
    if (!rs || !first || !name)
        return NULL;
    for (size_t i = (size_t)(first - rs->v); i < rs->n; i++)
        if (fnmatch(rs->v[i].glob, name, 0) == 0 && holds(&rs->v[i], module, params, sizes, nparams))
            return &rs->v[i];
    return NULL;
}

bool tf_rule_covers(const tf_rule *r, uint64_t threads, uint64_t elements)
{
    if (r->threads)
        return threads >= r->threads;
    return threads >= (elements + TF_RULE_ELEMS_PER_THREAD - 1) / TF_RULE_ELEMS_PER_THREAD;
}
