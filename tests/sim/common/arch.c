/* SIMCUDA_CC, read once (arch.h). */
#include "arch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int cc = 90;

static void parse(void)
{
    const char *s = getenv("SIMCUDA_CC");
    int major, minor, used = 0;
    if (!s || !*s)
        return;
    if (sscanf(s, "%d.%d%n", &major, &minor, &used) == 2 && s[used] == '\0' && major >= 1 && major <= 99 &&
        minor >= 0 && minor <= 9)
        cc = major * 10 + minor;
    else
        fprintf(stderr, "simcuda: SIMCUDA_CC=%s is not <major>.<minor>; using 9.0\n", s);
}

int sim_compute_capability(void)
{
    pthread_once(&once, parse);
    return cc;
}
