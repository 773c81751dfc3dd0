/* Write errors on the event log and the summary (ENOSPC, EIO, /dev/full):
 * the first one of each file is said once on stderr, since the file itself
 * cannot carry it; the program runs on. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/internal.h"

void write_check(FILE *f, const char *var, bool *reported)
{
    errno = 0;
    if (*reported || (fflush(f) == 0 && !ferror(f)))
        return;
    int err = errno ? errno : EIO;
    char msg[128];
    *reported = true;
    if (f != stderr) /* else there is nowhere left to say it */
        fprintf(stderr, "transfold: %s: write failed (%s); later %s output is lost\n", var,
                strerror_r(err, msg, sizeof msg), var);
}
