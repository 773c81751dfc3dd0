/* SIMCUDA_TRACE / SIMCUDA_NOOP. The environment is read once per library;
 * the file is opened lazily and kept open for the life of the process. */
#include "trace.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Longer lines are truncated rather than split, so a line stays atomic. */
#define SIM_TRACE_LINE_MAX 4096

static pthread_once_t trace_once = PTHREAD_ONCE_INIT;
static int trace_fd = -1;
static bool noop_on;

static void trace_init(void)
{
    const char *path = getenv("SIMCUDA_TRACE");
    if (path && *path)
        trace_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    const char *noop = getenv("SIMCUDA_NOOP");
    noop_on = noop && strcmp(noop, "1") == 0;
}

bool sim_trace_enabled(void)
{
    pthread_once(&trace_once, trace_init);
    return trace_fd >= 0;
}

bool sim_noop(void)
{
    pthread_once(&trace_once, trace_init);
    return noop_on;
}

void sim_trace(const char *op, const char *extra, ...)
{
    if (!sim_trace_enabled())
        return;
    char line[SIM_TRACE_LINE_MAX];
    size_t cap = sizeof line - 2; /* room for "}\n" */
    int n = snprintf(line, cap, "{\"op\":\"%s\"", op);
    if (n < 0)
        return;
    size_t len = (size_t)n < cap ? (size_t)n : cap - 1;
    if (extra && *extra && len + 1 < cap) {
        line[len++] = ',';
        va_list ap;
        va_start(ap, extra);
        int m = vsnprintf(line + len, cap - len, extra, ap);
        va_end(ap);
        if (m > 0)
            len += (size_t)m < cap - len ? (size_t)m : cap - len - 1;
    }
    line[len++] = '}';
    line[len++] = '\n';
    /* One write per line: O_APPEND makes it atomic with respect to others. */
    ssize_t w = write(trace_fd, line, len);
    (void)w;
}

char *sim_json_escape(char *out, size_t cap, const char *s)
{
    size_t o = 0;
    for (; s && *s && o + 7 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20) {
            o += (size_t)snprintf(out + o, cap - o, "\\u%04x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    if (cap)
        out[o < cap ? o : cap - 1] = '\0';
    return out;
}
