/* A kernel without a twin is named once on stderr, demangled and shortened
 * so the next twin is easy to write, with its mangled name (the name a twin
 * answers to). The demangler is the process's libstdc++ (a C++ host program
 * such as PyTorch has one) or a twin library's; without one, the mangled
 * name alone is printed. */
#include "internal.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

/* Removes every occurrence of `what` from s, in place. */
static void drop_all(char *s, const char *what)
{
    size_t n = strlen(what);
    for (char *p; (p = strstr(s, what));)
        memmove(p, p + n, strlen(p + n) + 1);
}

/* Index of the ')' matching the '(' at s[i], or the string's end. */
static size_t closing(const char *s, size_t i)
{
    int depth = 0;
    for (; s[i]; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i;
    }
    return i;
}

static bool after_lambda(const char *s, size_t i)
{
    return i >= 6 && strncmp(s + i - 6, "lambda", 6) == 0;
}

/* Parameter lists become "(...)" (a lambda's stay: they name its types),
 * and the kernel's own list, outside every template, goes. */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    int angle = 0;
    for (size_t i = 0; s[i] && o + 4 < cap; i++) {
        if (s[i] == '(' && !after_lambda(s, i)) {
            size_t end = closing(s, i);
            if (angle == 0)
                break;
            o += (size_t)snprintf(out + o, cap - o, "%s", end == i + 1 ? "()" : "(...)");
            i = s[end] ? end : end - 1;
            continue;
        }
        angle += s[i] == '<' ? 1 : s[i] == '>' ? -1 : 0;
        out[o++] = s[i];
    }
    out[o < cap ? o : cap - 1] = '\0';
}

void sim_kernel_readable(const char *demangled, char *out, size_t cap)
{
    if (!cap)
        return;
    char *s = strdup(demangled);
    if (!s) {
        snprintf(out, cap, "%s", demangled);
        return;
    }
    if (strncmp(s, "void ", 5) == 0)
        memmove(s, s + 5, strlen(s + 5) + 1);
    drop_all(s, "::operator()() const");
    drop_all(s, "at::native::");
    drop_all(s, "(anonymous namespace)::");
    squeeze(s, out, cap);
    free(s);
}

static demangle_fn find_demangler(void)
{
    demangle_fn d;
    *(void **)&d = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    return d;
}

void sim_function_missing(struct CUfunc_st *f)
{
    if (atomic_exchange(&f->told, true))
        return;
    demangle_fn demangle = find_demangler();
    int status = -1;
    char *full = demangle ? demangle(f->name, NULL, NULL, &status) : NULL;
    char readable[1024];
    if (full && status == 0) {
        sim_kernel_readable(full, readable, sizeof readable);
        fprintf(stderr, "simcuda: no twin for kernel %s (mangled %s)\n", readable, f->name);
    } else {
        fprintf(stderr, "simcuda: no twin for kernel %s\n", f->name);
    }
    free(full);
}
