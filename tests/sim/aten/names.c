/* Demangled names are well formed: brackets balance, arguments are
 * separated by ", " at depth zero. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

const char *aten_closing(const char *open)
{
    int depth = 0;
    for (const char *p = open; *p; p++) {
        if (*p == '<' || *p == '(' || *p == '[' || *p == '{')
            depth++;
        else if ((*p == '>' || *p == ')' || *p == ']' || *p == '}') && --depth == 0)
            return p;
    }
    return NULL;
}

/* Splits [s, end) at depth-zero commas. */
static int split(const char *s, const char *end, aten_span *args, int max)
{
    int n = 0, depth = 0;
    const char *start = s;
    for (const char *p = s; p <= end; p++) {
        if (p < end && (*p == '<' || *p == '(' || *p == '[' || *p == '{'))
            depth++;
        else if (p < end && (*p == '>' || *p == ')' || *p == ']' || *p == '}'))
            depth--;
        else if (p == end || (*p == ',' && depth == 0)) {
            while (start < p && *start == ' ')
                start++;
            const char *stop = p;
            while (stop > start && stop[-1] == ' ')
                stop--;
            if (stop == start && p == end && n == 0)
                return 0;
            if (n == max)
                return -1;
            args[n++] = (aten_span){start, (size_t)(stop - start)};
            start = p + 1;
        }
    }
    return n;
}

int aten_template_args(const char *open, aten_span *args, int max)
{
    const char *close = open && *open == '<' ? aten_closing(open) : NULL;
    return close ? split(open + 1, close, args, max) : -1;
}

bool aten_span_is(aten_span a, const char *text)
{
    return strlen(text) == a.n && strncmp(a.s, text, a.n) == 0;
}

const char *aten_span_find(aten_span a, const char *text)
{
    size_t n = strlen(text);
    for (size_t i = 0; n <= a.n && i <= a.n - n; i++)
        if (strncmp(a.s + i, text, n) == 0)
            return a.s + i;
    return NULL;
}

bool aten_span_has(aten_span a, const char *text) { return aten_span_find(a, text) != NULL; }

bool aten_lambda(aten_span a, aten_span *params, int max, int *nparams, int *number)
{
    /* The last "{lambda(" in the span, closing where the span ends. */
    const char *last = NULL;
    for (const char *p = a.s; (p = aten_span_find((aten_span){p, a.n - (size_t)(p - a.s)}, "{lambda("));
         p++)
        last = p;
    if (!last || a.s[a.n - 1] != '}')
        return false;
    const char *open = last + 7, *close = aten_closing(open);
    if (!close || close[1] != '#')
        return false;
    *number = atoi(close + 2);
    *nparams = split(open + 1, close, params, max);
    return *nparams >= 0;
}
