/* cublasXerbla: the reference BLAS error report for an illegal argument
 * (routine name and 1-based parameter number), on stderr. */
#include "handle.h"

#include <stdio.h>

void cublasXerbla(const char *srName, int info)
{
    fprintf(stderr, " ** On entry to %s parameter number %d had an illegal value\n", srName ? srName : "?", info);
}
