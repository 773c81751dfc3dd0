/* A stand-in "application" for the tests of `transfold ab`.
 *   envprobe same   prints the same lines in every run
 *   envprobe env    also prints whether anything is preloaded, which is the
 *                   one output that differs between the arms of ab, so ab
 *                   must fail on it.
 * Both print a `transfold-ab:` metric, which ab must leave out of the
 * comparison even though its value differs between arms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *pre = getenv("LD_PRELOAD");
    int preloaded = pre && *pre;
    if (argc != 2 || (strcmp(argv[1], "same") && strcmp(argv[1], "env"))) {
        fprintf(stderr, "usage: envprobe same|env\n");
        return 2;
    }
    printf("result 42\n");
    if (!strcmp(argv[1], "env"))
        printf("preloaded: %s\n", preloaded ? "yes" : "no");
    printf("transfold-ab: region %d.5\n", preloaded ? 2 : 3);
    return 0;
}
