/* Template arguments of a demangled name, split at the top-level commas of
 * one <...> list. Header-only (reduce, multi-tensor, softmax, norm, loss). */
#ifndef ATEN_TMPL_ARGS_H
#define ATEN_TMPL_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "dtype.h"

#define ATEN_TMPL_MAX 12

typedef struct aten_tmpl {
    int n;
    const char *arg[ATEN_TMPL_MAX]; /* each arg[i] runs for len[i] chars */
    size_t len[ATEN_TMPL_MAX];
} aten_tmpl;

/* s points just after a '<'; fills t up to the matching '>'. False when the
 * list does not close or has too many arguments. Parentheses count too
 * (lambda names hold "(float, float)"). */
static inline bool aten_tmpl_split(const char *s, aten_tmpl *t)
{
    int depth = 0;
    t->n = 0;
    while (*s == ' ')
        s++;
    const char *start = s;
    for (; *s; s++) {
        char c = *s;
        if (c == '<' || c == '(' || c == '{' || c == '[') {
            depth++;
        } else if ((c == '>' || c == ')' || c == '}' || c == ']') && depth > 0) {
            depth--;
        } else if ((c == ',' || c == '>') && depth == 0) {
            if (t->n == ATEN_TMPL_MAX)
                return false;
            size_t len = (size_t)(s - start);
            while (len && start[len - 1] == ' ')
                len--;
            t->arg[t->n] = start;
            t->len[t->n++] = len;
            if (c == '>')
                return true;
            start = s + 1;
            while (*start == ' ')
                start++;
        }
    }
    return false;
}

/* Whether argument i is exactly word. */
static inline bool aten_tmpl_is(const aten_tmpl *t, int i, const char *word)
{
    return i < t->n && t->len[i] == strlen(word) && strncmp(t->arg[i], word, t->len[i]) == 0;
}

/* Whether argument i starts with prefix; *inner gets what follows it. */
static inline bool aten_tmpl_starts(const aten_tmpl *t, int i, const char *prefix, const char **inner)
{
    size_t n = strlen(prefix);
    if (i >= t->n || t->len[i] < n || strncmp(t->arg[i], prefix, n) != 0)
        return false;
    if (inner)
        *inner = t->arg[i] + n;
    return true;
}

/* The integer argument i (e.g. "4", "32u"). */
static inline bool aten_tmpl_int(const aten_tmpl *t, int i, long *v)
{
    if (i >= t->n || !t->len[i])
        return false;
    long x = 0;
    bool neg = t->arg[i][0] == '-';
    size_t k = neg;
    if (k >= t->len[i])
        return false;
    for (; k < t->len[i] && t->arg[i][k] >= '0' && t->arg[i][k] <= '9'; k++)
        x = x * 10 + (t->arg[i][k] - '0');
    *v = neg ? -x : x;
    return true;
}

/* The element type argument i names exactly, or ATEN_NONE. */
static inline aten_dtype aten_tmpl_type(const aten_tmpl *t, int i)
{
    const char *rest = NULL;
    if (i >= t->n)
        return ATEN_NONE;
    aten_dtype d = aten_dtype_parse(t->arg[i], &rest);
    return rest == t->arg[i] + t->len[i] ? d : ATEN_NONE;
}

#endif
