/* Reading demangled C++ names without copying them: a span of bytes, its
 * brackets ('<' '(' '{' nest alike, as they do in demangled names) and
 * its top-level comma-separated template arguments. Shared by the name
 * parsers (kernel.c, kernel_ptr.c). */
#ifndef TF_ATEN_SPAN_H
#define TF_ATEN_SPAN_H
#include <stdbool.h>
#include <stddef.h>

typedef struct span { const char *p; size_t n; } span;

/* Where the bracket opened at s.p[0] closes, or s.n when it does not. */
size_t aten_closing(span s);
/* Top-level comma-separated items of s (no brackets around), at most max;
 * -1 when there are more or the brackets do not balance. */
int aten_split(span s, span *out, int max);
bool aten_starts(span s, const char *lit);
bool aten_ends(span s, const char *lit);
/* The template arguments of `prefix<...>` at the start of s; rest after. */
bool aten_template_args(span s, const char *prefix, span *args, span *rest);
/* s is exactly `name<...>` (trailing blanks aside) with `want` arguments. */
bool aten_named_template(span s, const char *name, span *targs, int want, span *a);

#endif
