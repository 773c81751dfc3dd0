/* Demangled names as spans (span.h). */
#include <string.h>

#include "aten/span.h"

/* Where the bracket opened at s.p[0] closes ('<' '(' '{' nest alike, as
 * they do in demangled names), or s.n when it does not. */
size_t aten_closing(span s)
{
    int depth = 0;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        depth += c == '<' || c == '(' || c == '{';
        depth -= c == '>' || c == ')' || c == '}';
        if (depth == 0)
            return i;
    }
    return s.n;
}

/* Top-level comma-separated items of s (no brackets around). */
int aten_split(span s, span *out, int max)
{
    int n = 0, depth = 0;
    size_t start = 0;
    if (s.n == 0)
        return 0;
    for (size_t i = 0; i <= s.n; i++) {
        char c = i < s.n ? s.p[i] : ',';
        depth += c == '<' || c == '(' || c == '{';
        depth -= c == '>' || c == ')' || c == '}';
        if (c == ',' && depth == 0) {
            if (n == max)
                return -1;
            size_t b = start;
            while (b < i && s.p[b] == ' ')
                b++;
            out[n++] = (span){ s.p + b, i - b };
            start = i + 1;
        }
    }
    return depth == 0 ? n : -1;
}

bool aten_starts(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p, lit, n) == 0;
}

bool aten_ends(span s, const char *lit)
{
    size_t n = strlen(lit);
    return s.n >= n && memcmp(s.p + s.n - n, lit, n) == 0;
}

/* The template arguments of `prefix<...>` at the start of s; rest after. */
bool aten_template_args(span s, const char *prefix, span *args, span *rest)
{
    size_t n = strlen(prefix);
    if (!aten_starts(s, prefix) || s.n <= n || s.p[n] != '<')
        return false;
    span from = { s.p + n, s.n - n };
    size_t close = aten_closing(from);
    if (close == from.n)
        return false;
    *args = (span){ from.p + 1, close - 1 };
    *rest = (span){ from.p + close + 1, from.n - close - 1 };
    return true;
}

/* The type argument `at::native::Name<...>` of s names: its template
 * arguments, or false. */
bool aten_named_template(span s, const char *name, span *targs, int want, span *a)
{
    span rest;
    while (s.n && s.p[s.n - 1] == ' ') /* "MaxNanFunctor<float> >" */
        s.n--;
    return aten_template_args(s, name, targs, &rest) && rest.n == 0 && aten_split(*targs, a, want) == want;
}

