/* The kernel-rules parser. A malformed line is an error with file and line;
 * the caller then runs the whole process as pass-through, so a typo can never
 * make transfold fold something it misunderstood. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rules/rules_internal.h"

static const char *const key_names[K_N] = {"in", "out", "rows", "cols", "ld_in", "ld_out",
                                            "batch", "stride_in", "stride_out"};

typedef struct parse_ctx { const char *file; int line; char *err; size_t errlen; } parse_ctx;

static bool fail(parse_ctx *c, const char *fmt, const char *a)
{
    int n = snprintf(c->err, c->errlen, "%s:%d: ", c->file, c->line);
    if (n >= 0 && (size_t)n < c->errlen)
        snprintf(c->err + n, c->errlen - (size_t)n, fmt, a);
    return false;
}

static bool parse_int(const char *s, long long min, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min)
        return false;
    *out = v;
    return true;
}

static bool parse_type(const char *s, ftype *t)
{
    static const char *names[] = {"ptr", "i32", "i64", "u32", "u64"};
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0) {
            *t = (ftype)i;
            return true;
        }
    return false;
}

/* P, P@OFF, either with :TYPE, or #N. */
static bool parse_field(parse_ctx *c, int key, char *v, field *f)
{
    bool is_ptr = key == K_IN || key == K_OUT;
    f->type = is_ptr ? T_PTR : T_I32;
    if (v[0] == '#') {
        long long n;
        if (is_ptr)
            return fail(c, "%s= is a pointer and cannot be a literal", key_names[key]);
        if (!parse_int(v + 1, 0, &n))
            return fail(c, "%s=: literal must be #<non-negative integer>", key_names[key]);
        f->kind = F_LITERAL;
        f->lit = n;
        return true;
    }
    char *type = strchr(v, ':');
    if (type) {
        *type++ = 0;
        if (!parse_type(type, &f->type))
            return fail(c, "unknown type '%s' (ptr, i32, i64, u32, u64)", type);
        if (is_ptr != (f->type == T_PTR || f->type == T_U64))
            return fail(c, "%s= has a type that does not fit it", key_names[key]);
    }
    char *at = strchr(v, '@');
    long long idx, off = 0;
    if (at)
        *at++ = 0;
    if (!parse_int(v, 0, &idx) || idx >= TF_RULE_MAX_PARAMS || (at && !parse_int(at, 0, &off)))
        return fail(c, "%s=: expected P, P@OFF or #N with an optional :TYPE", key_names[key]);
    f->kind = F_PARAM;
    f->index = (int)idx;
    f->has_off = at != NULL;
    f->off = (long)off;
    return true;
}

/* strtok_r, not strtok: the host program may be in the middle of its own
 * strtok loop when the first hook loads the rules. */
static bool parse_sig(parse_ctx *c, char *v, tf_rule *r)
{
    char *save = NULL;
    for (char *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long long n;
        if (r->nsig >= TF_RULE_MAX_PARAMS || !parse_int(tok, 1, &n))
            return fail(c, "sig= must be comma-separated positive sizes in bytes%s", "");
        r->sig[r->nsig++] = (size_t)n;
    }
    if (r->nsig == 0)
        return fail(c, "sig= is empty%s", "");
    return true;
}

static int key_index(const char *k)
{
    for (int i = 0; i < K_N; i++)
        if (strcmp(k, key_names[i]) == 0)
            return i;
    return -1;
}

static bool parse_pair(parse_ctx *c, char *tok, tf_rule *r, bool *seen_elem, bool *seen_sig)
{
    char *eq = strchr(tok, '=');
    if (!eq || eq == tok)
        return fail(c, "'%s' is not key=value", tok);
    *eq = 0;
    char *v = eq + 1;
    if (strcmp(tok, "elem") == 0) {
        long long n;
        if (*seen_elem)
            return fail(c, "duplicate key '%s'", tok);
        if (!parse_int(v, 1, &n) || n > 64)
            return fail(c, "elem= must be a size in bytes between 1 and 64, not '%s'", v);
        *seen_elem = true;
        r->elem = (uint32_t)n;
        return true;
    }
    if (strcmp(tok, "sig") == 0) {
        if (*seen_sig)
            return fail(c, "duplicate key '%s'", tok);
        *seen_sig = true;
        return parse_sig(c, v, r);
    }
    const char *extra_err = NULL;
    if (rule_extra_key(r, tok, v, &extra_err))
        return extra_err ? fail(c, "%s", extra_err) : true;
    int k = key_index(tok);
    if (k < 0)
        return fail(c, "unknown key '%s'", tok);
    if (r->f[k].kind != F_NONE)
        return fail(c, "duplicate key '%s'", tok);
    return parse_field(c, k, v, &r->f[k]);
}

static bool check_complete(parse_ctx *c, const tf_rule *r, bool seen_elem)
{
    static const int required[] = {K_IN, K_OUT, K_ROWS, K_COLS};
    for (int i = 0; i < 4; i++)
        if (r->f[required[i]].kind == F_NONE)
            return fail(c, "missing %s=", key_names[required[i]]);
    if (!seen_elem)
        return fail(c, "missing elem=%s", "");
    for (int k = 0; k < K_N && r->nsig; k++)
        if (r->f[k].kind == F_PARAM && r->f[k].index >= r->nsig)
            return fail(c, "%s= names a parameter beyond sig=", key_names[k]);
    return true;
}

/* Comments start at a '#' that begins a word; '#' right after '=' is a literal. */
static void strip_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
            *p = 0;
            return;
        }
}

static bool parse_line(parse_ctx *c, char *s, tf_rule *r, bool *empty)
{
    strip_comment(s);
    char *save = NULL;
    char *tok = strtok_r(s, " \t\r", &save);
    *empty = tok == NULL;
    if (!tok)
        return true;
    if (strchr(tok, '='))
        return fail(c, "expected a kernel-name glob before '%s'", tok);
    memset(r, 0, sizeof *r);
    r->glob = strdup(tok);
    bool seen_elem = false, seen_sig = false, ok = true;
    while (ok && (tok = strtok_r(NULL, " \t\r", &save)))
        ok = parse_pair(c, tok, r, &seen_elem, &seen_sig);
    if (ok)
        ok = check_complete(c, r, seen_elem);
    if (!ok) {
        free(r->glob);
        free(r->guards);
    }
    return ok;
}

static bool rules_push(tf_rules *rs, const tf_rule *r)
{
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 8;
        tf_rule *v = realloc(rs->v, cap * sizeof *v);
        if (!v)
            return false;
        rs->v = v;
        rs->cap = cap;
    }
    rs->v[rs->n++] = *r;
    return true;
}

static bool parse_into(tf_rules *rs, const char *text, const char *file, char *err, size_t errlen)
{
    char *copy = strdup(text);
    parse_ctx c = {file, 0, err, errlen};
    bool ok = copy != NULL;
    for (char *line = copy, *next; ok && line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        c.line++;
        tf_rule r;
        bool empty;
        ok = parse_line(&c, line, &r, &empty);
        if (ok && !empty && !rules_push(rs, &r)) {
            free(r.glob);
            free(r.guards);
            ok = fail(&c, "out of memory%s", "");
        }
    }
    free(copy);
    return ok;
}

tf_rules *tf_rules_parse(const char *text, const char *file, char *err, size_t errlen)
{
    tf_rules *rs = calloc(1, sizeof *rs);
    if (rs && !parse_into(rs, text, file, err, errlen)) {
        tf_rules_free(rs);
        return NULL;
    }
    return rs;
}

#define TF_RULES_MAX_BYTES (16u << 20)

/* Why the text read so far cannot be a rules file, or NULL. */
static const char *not_text(const char *buf, size_t len, char *why, size_t whylen)
{
    const char *nul = memchr(buf, 0, len);
    if (nul) {
        snprintf(why, whylen, "NUL byte at offset %zu: not a text file", (size_t)(nul - buf));
        return why;
    }
    if (len > TF_RULES_MAX_BYTES) {
        snprintf(why, whylen, "larger than %u MiB: not a rules file", TF_RULES_MAX_BYTES >> 20);
        return why;
    }
    return NULL;
}

static bool grow(char **buf, size_t *cap)
{
    char *b = realloc(*buf, *cap * 2);
    if (!b)
        return false;
    *buf = b;
    *cap *= 2;
    return true;
}

/* The whole file as a string, or NULL with *why. A directory (which fopen
 * accepts and reads as empty), a NUL byte, a read error or a file without
 * end (/dev/zero) is an error, never a silently empty or cut rule set. */
static char *slurp(const char *path, char *why, size_t whylen)
{
    FILE *f = fopen(path, "re");
    struct stat st;
    char msg[128];
    *why = 0;
    if (!f || fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "%s", f ? "is a directory" : strerror_r(errno, msg, sizeof msg));
        if (f)
            fclose(f);
        return NULL;
    }
    size_t cap = 4096, len = 0, n;
    char *buf = malloc(cap);
    while (buf && !*why && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (!not_text(buf, len, why, whylen) && cap - len < 2 && !grow(&buf, &cap))
            snprintf(why, whylen, "out of memory");
    }
    if (!*why && (ferror(f) || !buf))
        snprintf(why, whylen, "%s", buf ? "read error" : "out of memory");
    fclose(f);
    if (*why) {
        free(buf);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

tf_rules *tf_rules_load(const char *paths, char *err, size_t errlen)
{
    tf_rules *rs = calloc(1, sizeof *rs);
    char *list = strdup(paths ? paths : "");
    bool ok = rs && list;
    char *save = NULL;
    for (char *p = list ? strtok_r(list, ":", &save) : NULL; ok && p; p = strtok_r(NULL, ":", &save)) {
        char why[128];
        char *text = slurp(p, why, sizeof why);
        if (!text) {
            snprintf(err, errlen, "%s: cannot read rules file: %s", p, why);
            ok = false;
            break;
        }
        ok = parse_into(rs, text, p, err, errlen);
        free(text);
    }
    free(list);
    if (!ok) {
        tf_rules_free(rs);
        return NULL;
    }
    return rs;
}

void tf_rules_free(tf_rules *rs)
{
    if (!rs)
        return;
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->v[i].glob);
        free(rs->v[i].guards);
    }
    free(rs->v);
    free(rs);
}

size_t tf_rules_count(const tf_rules *rs)
{
    return rs ? rs->n : 0;
}

const tf_rule *tf_rules_match(const tf_rules *rs, const char *name)
{
    for (size_t i = 0; rs && name && i < rs->n; i++)
        if (fnmatch(rs->v[i].glob, name, 0) == 0)
            return &rs->v[i];
    return NULL;
}

const size_t *tf_rule_sig(const tf_rule *r, int *n)
{
    *n = r->nsig;
    return r->nsig ? r->sig : NULL;
}
