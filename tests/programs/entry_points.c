/* Looks up every driver entry point of a list through cuGetProcAddress, as
 * the static CUDA runtime does at start-up (it stops when one is missing),
 * with the default and the per-thread default stream flags; then calls one
 * entry point with no arguments through the pointer it got, and round-trips
 * a buffer through device memory with entry points from the same lookups.
 *
 * Usage: entry_points LIST [CALL VERSION]
 *   LIST     lines "name version" (e2e: generated from cuda*Typedefs.h)
 *   CALL     an entry point taking no arguments (cuProfilerStart, ...)
 * Prints the number of lookups, each failed one with its query result, the
 * status CALL returned and the round-tripped buffer. */
#include <cuda.h>

#include "common.h"

typedef CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

static int lookup(gpa_fn gpa, const char *name, int version, cuuint64_t flags, void **fn)
{
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = gpa(name, fn, version, flags, &st);
    if (r != CUDA_SUCCESS || st != CU_GET_PROC_ADDRESS_SUCCESS || !*fn) {
        printf("lookup failed: %s %d flags %llu -> %d, query result %d\n", name, version,
               (unsigned long long)flags, (int)r, (int)st);
        return 1;
    }
    return 0;
}

typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*free_fn)(CUdeviceptr);
typedef CUresult (*htod_fn)(CUdeviceptr, const void *, size_t);
typedef CUresult (*dtoh_fn)(void *, CUdeviceptr, size_t);

/* Device memory through looked-up pointers only, as a static runtime uses
 * the driver; the copy to the device in its per-thread default stream form,
 * asked at the version that form appeared in (7.0), as that runtime asks. */
static int round_trip(gpa_fn gpa)
{
    alloc_fn alloc;
    free_fn release;
    htod_fn htod;
    dtoh_fn dtoh;
    if (lookup(gpa, "cuMemAlloc", 3020, 0, (void **)&alloc) || lookup(gpa, "cuMemFree", 3020, 0, (void **)&release) ||
        lookup(gpa, "cuMemcpyHtoD", 7000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, (void **)&htod) || lookup(gpa, "cuMemcpyDtoH", 3020, 0, (void **)&dtoh))
        return 1;
    float in[64], out[64] = {0};
    for (int i = 0; i < 64; i++) in[i] = 0.5f * (float)i;
    CUdeviceptr d;
    CKD(alloc(&d, sizeof in));
    CKD(htod(d, in, sizeof in));
    CKD(dtoh(out, d, sizeof out));
    CKD(release(d));
    show_host("round trip", out, 64, sizeof out[0]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: entry_points LIST [CALL VERSION]\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 2;
    }
    CKD(cuInit(0));
    gpa_fn gpa = NULL;
    CKD(cuGetProcAddress("cuGetProcAddress", (void **)&gpa, 12000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    char name[256];
    int version, n = 0, failed = 0;
    void *fn;
    while (fscanf(list, "%255s %d", name, &version) == 2) {
        failed += lookup(gpa, name, version, CU_GET_PROC_ADDRESS_DEFAULT, &fn);
        failed += lookup(gpa, name, version, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &fn);
        n++;
    }
    fclose(list);
    printf("entry points looked up: %d, failed lookups: %d\n", n, failed);
    failed += round_trip(gpa);
    if (argc == 4) {
        CUresult (*call)(void) = NULL;
        if (lookup(gpa, argv[2], atoi(argv[3]), CU_GET_PROC_ADDRESS_DEFAULT, (void **)&call) == 0)
            printf("%s -> %d\n", argv[2], (int)call());
    }
    return failed ? 1 : 0;
}
