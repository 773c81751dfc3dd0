/* Reading demangled C++ names: template argument lists and lambdas. */
#ifndef ATEN_NAMES_H
#define ATEN_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* A piece of a name: [s, s + n). */
typedef struct aten_span { const char *s; size_t n; } aten_span;

/* The '>' or ')' closing the '<' or '(' at open (brackets of both kinds
 * nest), or NULL. */
const char *aten_closing(const char *open);

/* Splits the template argument list opening at `open` ('<') into at most
 * max arguments; returns how many (-1 when malformed or more than max). */
int aten_template_args(const char *open, aten_span *args, int max);

/* Whether span equals text exactly / contains text. */
bool aten_span_is(aten_span a, const char *text);
bool aten_span_has(aten_span a, const char *text);
/* The first occurrence of text inside span, or NULL. */
const char *aten_span_find(aten_span a, const char *text);

/* The innermost lambda ending the span ("...::{lambda(float, float)#2}"):
 * its parameter types as spans and its number; false if a is no lambda. */
bool aten_lambda(aten_span a, aten_span *params, int max, int *nparams, int *number);

#endif
