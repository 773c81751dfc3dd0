/* simcuda_resolve: the library's one entry point. The kernel's name is
 * demangled once and each family of ATEN_FAMILIES is asked in turn. */
#include "aten.h"

#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler (the library links it for this alone). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

__attribute__((visibility("default"))) bool simcuda_resolve(const char *mangled, simcuda_twin *out)
{
    int status = -1;
    char *name = mangled ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    bool found = false;
    if (name && status == 0) {
#define ATEN_ASK(family) found = found || aten_##family##_resolve(name, out);
        ATEN_FAMILIES(ATEN_ASK)
#undef ATEN_ASK
    }
    free(name);
    return found;
}

bool aten_starts(const char *s, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) != 0)
        return false;
    if (rest)
        *rest = s + n;
    return true;
}

bool aten_int_arg(const char **s, long *value)
{
    char *end;
    const char *p = *s;
    while (*p == ',' || *p == ' ')
        p++;
    long v = strtol(p, &end, 10);
    if (end == p)
        return false;
    *value = v;
    *s = end;
    return true;
}
