/* A transpose loaded as a module and launched through the driver API the way
 * JIT compilers (nvFuser) do it, then consumed by cublasGemmEx.
 *
 * Usage: driver ROUTE MODULE [drvmem|launchex]
 *   ROUTE   how the driver functions are obtained:
 *           dlsym       dlopen("libcuda.so.1") + dlsym
 *           procaddr    cuGetProcAddress (its self-lookup, then everything through it)
 *           entrypoint  cudaGetDriverEntryPointByVersion
 *   MODULE  image for cuModuleLoadData (PTX of modules/nvf_transpose.cu)
 *   drvmem    allocate W and Wt with cuMemAlloc instead of cudaMalloc
 *   launchex  launch with cuLaunchKernelEx instead of cuLaunchKernel
 *
 * The kernel takes two nvFuser-style tensors by value, T1[c, r] = T0[r, c]:
 * W (24 x 16 row-major) -> Wt (16 x 24 row-major); then row-major
 * Y[10, 24] = X[10, 16] * Wt.
 */
#include <cuda.h>
#include <dlfcn.h>

#include "common.h"

enum { ROWS = 24, COLS = 16, M = 10 };

typedef struct nvf_tensor { float *data; int64_t size[2]; int64_t stride[2]; } nvf_tensor;

/* The driver functions used, by base name (cuGetProcAddress) and by
 * exported symbol (dlsym). */
enum { F_INIT, F_LOAD, F_GETFN, F_LAUNCH, F_LAUNCHEX, F_ALLOC, F_FREE, F_HTOD, F_COUNT };
static const char *const BASE[F_COUNT] = {"cuInit",     "cuModuleLoadData", "cuModuleGetFunction",
                                          "cuLaunchKernel", "cuLaunchKernelEx", "cuMemAlloc",
                                          "cuMemFree",  "cuMemcpyHtoD"};
static const char *const SYMBOL[F_COUNT] = {"cuInit",        "cuModuleLoadData", "cuModuleGetFunction",
                                            "cuLaunchKernel", "cuLaunchKernelEx", "cuMemAlloc_v2",
                                            "cuMemFree_v2",  "cuMemcpyHtoD_v2"};
static void *fn[F_COUNT];

typedef CUresult (*init_fn)(unsigned);
typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*getfn_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
typedef CUresult (*launchex_fn)(const CUlaunchConfig *, CUfunction, void **, void **);
typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*free_fn)(CUdeviceptr);
typedef CUresult (*htod_fn)(CUdeviceptr, const void *, size_t);

static int resolve(const char *route)
{
    if (is(route, "dlsym")) {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return -1;
        for (int i = 0; i < F_COUNT; i++) fn[i] = dlsym(lib, SYMBOL[i]);
    } else if (is(route, "procaddr")) {
        /* As the runtime does: look the resolver up through itself first. */
        CUresult (*gpa)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *) = NULL;
        CKD(cuGetProcAddress("cuGetProcAddress", (void **)&gpa, 12000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
        for (int i = 0; i < F_COUNT; i++) {
            CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
            CKD(gpa(BASE[i], &fn[i], 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
            if (st != CU_GET_PROC_ADDRESS_SUCCESS) printf("%s: query result %d\n", BASE[i], (int)st);
        }
    } else if (is(route, "entrypoint")) {
        for (int i = 0; i < F_COUNT; i++) {
            enum cudaDriverEntryPointQueryResult st = cudaDriverEntryPointSymbolNotFound;
            CK(cudaGetDriverEntryPointByVersion(BASE[i], &fn[i], 12000, cudaEnableDefault, &st));
            if (st != cudaDriverEntryPointSuccess) printf("%s: query result %d\n", BASE[i], (int)st);
        }
    } else {
        return -1;
    }
    for (int i = 0; i < F_COUNT; i++)
        if (!fn[i]) {
            printf("%s: not found\n", BASE[i]);
            return -1;
        }
    return 0;
}

static void *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = calloc(1, (size_t)n + 1); /* PTX images are NUL-terminated */
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    return buf;
}

static float *device_f32(size_t n, unsigned seed, int drvmem)
{
    if (!drvmem) return dev_f32(n, seed);
    float *h = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = tf_val(2 * i, seed);
    CUdeviceptr d = 0;
    CKD(((alloc_fn)fn[F_ALLOC])(&d, n * sizeof(float)));
    CKD(((htod_fn)fn[F_HTOD])(d, h, n * sizeof(float)));
    free(h);
    return (float *)(uintptr_t)d;
}

int main(int argc, char **argv)
{
    if (argc < 3) return usage(argv[0]);
    int drvmem = argc > 3 && is(argv[3], "drvmem"), launchex = argc > 3 && is(argv[3], "launchex");
    CK(cudaFree(0)); /* the runtime makes the primary context current */
    if (resolve(argv[1]) != 0) return usage(argv[0]);
    void *image = read_file(argv[2]);
    if (!image) {
        printf("cannot read %s\n", argv[2]);
        return 66;
    }
    CKD(((init_fn)fn[F_INIT])(0));
    CUmodule mod;
    CUfunction kernel;
    CKD(((load_fn)fn[F_LOAD])(&mod, image));
    CKD(((getfn_fn)fn[F_GETFN])(&kernel, mod, "_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1_"));

    float *w = device_f32(ROWS * COLS, 1, drvmem), *wt = device_f32(ROWS * COLS, 5, drvmem);
    float *x = dev_f32(M * COLS, 2), *y = dev_zero(M * ROWS * sizeof(float));
    nvf_tensor t0 = {w, {ROWS, COLS}, {COLS, 1}}, t1 = {wt, {COLS, ROWS}, {ROWS, 1}};
    void *args[] = {&t0, &t1};
    if (launchex) {
        CUlaunchConfig cfg = {.gridDimX = (ROWS * COLS + 127) / 128, .gridDimY = 1, .gridDimZ = 1,
                              .blockDimX = 128, .blockDimY = 1, .blockDimZ = 1};
        CKD(((launchex_fn)fn[F_LAUNCHEX])(&cfg, kernel, args, NULL));
    } else {
        CKD(((launch_fn)fn[F_LAUNCH])(kernel, (ROWS * COLS + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    }

    cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasCreate(&h));
    CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, ROWS, M, COLS, &one, wt, CUDA_R_32F, ROWS, x, CUDA_R_32F, COLS,
                     &zero, y, CUDA_R_32F, ROWS, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    if (drvmem) {
        CKD(((free_fn)fn[F_FREE])((CUdeviceptr)(uintptr_t)wt));
    } else {
        CK(cudaFree(wt));
    }
    show_dev("Y", y, M * ROWS, 4);
    CKB(cublasDestroy(h));
    free(image);
    printf("done\n");
    return 0;
}
