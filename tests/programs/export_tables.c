/* The driver's private interfaces (cuGetExportTable) that the static CUDA
 * runtime uses, called directly, slot by slot, for the slots the CUDA 13
 * runtime does not exercise at start-up: a module from a fat binary wrapper
 * and from a bare fat binary, whose kernel then launches (its twin runs);
 * the primary context; context-local storage with its destroy callback at
 * cuDevicePrimaryCtxReset; the integrity check's fixed answers and its
 * dependence on its inputs; an unknown UUID.
 *
 * Usage: export_tables
 * Prints one line a check; "FAIL line N" and exit 2 on a failed driver call. */
#include <cuda.h>

#include "common.h"

#define UUID(...) ((const CUuuid){{__VA_ARGS__}})
#define RUNTIME UUID(0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9)
#define STORAGE UUID(0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93)
#define INTEGRITY UUID(0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2)
#define UNKNOWN UUID(0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9)

enum { ROWS = 24, COLS = 16 };

static void *const *table(CUuuid id)
{
    const void *t = NULL;
    CKD(cuGetExportTable(&t, &id));
    return (void *const *)t;
}

typedef CUresult (*from_wrapper_fn)(CUmodule *, const void *);
typedef CUresult (*from_fatbin_fn)(const void *, CUmodule *, void *, void *, unsigned);
typedef CUresult (*primary_fn)(CUcontext *, CUdevice);

/* Wt = W^T by the module's transpose_naive (its twin), read back. */
static void transpose_with(CUmodule m, const char *label)
{
    float w[ROWS * COLS], wt[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++) w[i] = 0.5f * (float)(i % 37);
    CUfunction f;
    CUdeviceptr dw, dwt;
    CKD(cuModuleGetFunction(&f, m, "_Z15transpose_naivePfPKfii"));
    CKD(cuMemAlloc(&dw, sizeof w));
    CKD(cuMemAlloc(&dwt, sizeof wt));
    CKD(cuMemcpyHtoD(dw, w, sizeof w));
    int rows = ROWS, cols = COLS;
    void *params[] = {&dwt, &dw, &rows, &cols};
    CKD(cuLaunchKernel(f, (COLS + 7) / 8, (ROWS + 7) / 8, 1, 8, 8, 1, 0, NULL, params, NULL));
    CKD(cuMemcpyDtoH(wt, dwt, sizeof wt));
    int right = 1;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            right &= wt[c * ROWS + r] == w[r * COLS + c];
    printf("%s: transpose right: %d\n", label, right);
    CKD(cuMemFree(dw));
    CKD(cuMemFree(dwt));
}

static void runtime_interface(void)
{
    void *const *t = table(RUNTIME);
    printf("runtime interface: %zu bytes\n", (size_t)(uintptr_t)t[0]);
    static const char image[] = "any image: the stand-in reads no device code";
    const struct { int magic, version; const void *data, *rest; } wrapper = {0x466243b1, 1, image, NULL};
    CUmodule m;
    CKD(((from_wrapper_fn)t[1])(&m, &wrapper));
    transpose_with(m, "module from wrapper (slot 1)");
    CKD(((from_fatbin_fn)t[8])(image, &m, NULL, NULL, 0));
    transpose_with(m, "module from fat binary (slot 8)");
    printf("slot 1 without a module pointer -> %d\n", (int)((from_wrapper_fn)t[1])(NULL, &wrapper));
    CUcontext slot, retained;
    CKD(((primary_fn)t[2])(&slot, 0));
    CKD(cuDevicePrimaryCtxRetain(&retained, 0));
    printf("primary context (slot 2) is the retained one: %d\n", slot == retained);
    printf("slot 2 for device 7 -> %d\n", (int)((primary_fn)t[2])(&slot, 7));
    CKD(cuCtxSetCurrent(retained));
}

typedef void (*dtor_fn)(CUcontext, void *, void *);
typedef CUresult (*put_fn)(CUcontext, void *, void *, dtor_fn);
typedef CUresult (*delete_fn)(CUcontext, void *);
typedef CUresult (*get_fn)(void **, CUcontext, void *);

static int key_a, key_b, value_a, value_b;
static int destroyed;
static void on_destroy(CUcontext ctx, void *key, void *value)
{
    (void)ctx;
    destroyed += key == &key_b && value == &value_b;
}

static void storage(void)
{
    void *const *t = table(STORAGE);
    put_fn put = (put_fn)t[0];
    delete_fn del = (delete_fn)t[1];
    get_fn get = (get_fn)t[2];
    void *v = NULL;
    CUcontext ctx;
    CKD(cuCtxGetCurrent(&ctx));
    printf("storage: get before put -> %d\n", (int)get(&v, NULL, &key_a));
    CKD(put(NULL, &key_a, &value_a, NULL));
    CKD(get(&v, ctx, &key_a));
    printf("storage: put on the current context, got back: %d\n", v == &value_a);
    CKD(del(ctx, &key_a));
    printf("storage: get after delete -> %d\n", (int)get(&v, NULL, &key_a));
    CKD(put(ctx, &key_b, &value_b, on_destroy));
    CKD(cuDevicePrimaryCtxReset(0));
    printf("storage: destroy callbacks at reset: %d\n", destroyed);
    printf("storage: get after reset -> %d\n", (int)get(&v, ctx, &key_b));
}

typedef CUresult (*integrity_fn)(uint32_t, uint64_t, uint64_t[2]);

static void integrity(void)
{
    void *const *t = table(INTEGRITY);
    integrity_fn check = (integrity_fn)t[1];
    uint64_t a[2], b[2], c[2];
    CKD(check(13000, 1000, a));
    CKD(check(13001, 1000, b));
    printf("integrity: 13000 -> %016llx%016llx\n", (unsigned long long)a[1], (unsigned long long)a[0]);
    printf("integrity: 13001 -> %016llx%016llx\n", (unsigned long long)b[1], (unsigned long long)b[0]);
    CKD(check(13002, 1000, a));
    CKD(check(13002, 1000, b));
    CKD(check(13002, 1001, c));
    printf("integrity: 13002 the same for the same inputs: %d, another for another time: %d\n",
           a[0] == b[0] && a[1] == b[1], a[0] != c[0] || a[1] != c[1]);
    printf("integrity: no result pointer -> %d\n", (int)check(13002, 1000, NULL));
}

int main(void)
{
    const void *t = &t;
    CKD(cuInit(0));
    CUuuid unknown = UNKNOWN;
    printf("unknown table -> %d, table %s\n", (int)cuGetExportTable(&t, &unknown), t == &t ? "untouched" : "written");
    printf("no table pointer -> %d\n", (int)cuGetExportTable(NULL, &unknown));
    runtime_interface();
    storage();
    integrity();
    return 0;
}
