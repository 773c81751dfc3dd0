/* Generated kernels loaded and launched through the driver, as JIT
 * compilers do, in a training-step loop (cudaMallocAsync/cudaFreeAsync),
 * with no rule: transfold must learn which are transposes.
 *
 * Usage: learn_driver nvfuser TRANSPOSE_PTX COPY_PTX STEPS
 *          nvFuser-style: two modules exporting the SAME kernel name
 *          (CudaCodeGen::kernel1), one a transpose and one a copy, launched
 *          with cuLaunchKernelEx from cudaGetDriverEntryPointByVersion
 *        learn_driver triton TRITON_PTX - STEPS
 *          Triton-style triton_poi_fused_clone_0 through dlopen/dlsym of
 *          libcuda and cuLaunchKernel
 * Each step: W (24 x 16 row-major) and X fresh; Wt = W^T from the kernel;
 * Y1 = X * Wt (cublasGemmEx); nvfuser also P = copy of W and Y2 = X * P^T.
 */
#include <cuda.h>
#include <dlfcn.h>

#include "common.h"

enum { ROWS = 24, COLS = 16, M = 10 };

typedef struct nvf_tensor { float *data; int64_t size[2]; int64_t stride[2]; } nvf_tensor;
typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*getfn_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
typedef CUresult (*launchex_fn)(const CUlaunchConfig *, CUfunction, void **, void **);

static load_fn load;
static getfn_fn getfn;
static launch_fn launch;
static launchex_fn launchex;

static int resolve(int triton)
{
    if (triton) {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) return -1;
        load = (load_fn)dlsym(lib, "cuModuleLoadData");
        getfn = (getfn_fn)dlsym(lib, "cuModuleGetFunction");
        launch = (launch_fn)dlsym(lib, "cuLaunchKernel");
        return load && getfn && launch ? 0 : -1;
    }
    enum cudaDriverEntryPointQueryResult st;
    CK(cudaGetDriverEntryPointByVersion("cuModuleLoadData", (void **)&load, 12000, cudaEnableDefault, &st));
    CK(cudaGetDriverEntryPointByVersion("cuModuleGetFunction", (void **)&getfn, 12000, cudaEnableDefault, &st));
    CK(cudaGetDriverEntryPointByVersion("cuLaunchKernelEx", (void **)&launchex, 12000, cudaEnableDefault, &st));
    return load && getfn && launchex ? 0 : -1;
}

static CUfunction kernel_in(const char *path, const char *name)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("cannot read %s\n", path);
        exit(66);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *image = calloc(1, (size_t)n + 1); /* PTX images are NUL-terminated */
    if (fread(image, 1, (size_t)n, f) != (size_t)n) image[0] = 0;
    fclose(f);
    CUmodule mod;
    CUfunction k;
    CKD(load(&mod, image));
    CKD(getfn(&k, mod, name));
    free(image);
    return k;
}

static void *alloc(size_t bytes, cudaStream_t s)
{
    void *p = NULL;
    CK(cudaMallocAsync(&p, bytes, s));
    return p;
}

static float *fresh(size_t n, unsigned seed, cudaStream_t s)
{
    float *h = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) h[i] = tf_val(i, seed);
    float *d = alloc(n * sizeof(float), s);
    CK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    free(h);
    return d;
}

static void nvf_launch(CUfunction k, float *from, float *to, int transpose, cudaStream_t s)
{
    nvf_tensor t0, t1;
    memset(&t0, 0, sizeof t0);
    memset(&t1, 0, sizeof t1);
    t0 = (nvf_tensor){from, {ROWS, COLS}, {COLS, 1}};
    t1 = transpose ? (nvf_tensor){to, {COLS, ROWS}, {ROWS, 1}} : (nvf_tensor){to, {ROWS, COLS}, {COLS, 1}};
    void *args[] = {&t0, &t1};
    CUlaunchConfig cfg = {.gridDimX = (ROWS * COLS + 127) / 128, .gridDimY = 1, .gridDimZ = 1,
                          .blockDimX = 128, .blockDimY = 1, .blockDimZ = 1, .hStream = (CUstream)s};
    CKD(launchex(&cfg, k, args, NULL));
}

static void gemm(cublasHandle_t h, cublasOperation_t op, const float *a, int lda, const float *x, float *y)
{
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasGemmEx(h, op, CUBLAS_OP_N, ROWS, M, COLS, &one, a, CUDA_R_32F, lda, x, CUDA_R_32F, COLS, &zero, y,
                     CUDA_R_32F, ROWS, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

static void show_y(const char *what, int step, const float *y, cudaStream_t s)
{
    float h[M * ROWS];
    CK(cudaMemcpyAsync(h, y, sizeof h, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    char label[32];
    snprintf(label, sizeof label, "step %d %s", step, what);
    show_host(label, h, M * ROWS, 4);
}

int main(int argc, char **argv)
{
    if (argc < 5) return 2;
    int triton = is(argv[1], "triton"), steps = atoi(argv[4]);
    CK(cudaFree(0)); /* the runtime makes the primary context current */
    if (resolve(triton) != 0) return 2;
    const char *nvf = "_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1_";
    CUfunction kt = kernel_in(argv[2], triton ? "triton_poi_fused_clone_0" : nvf);
    CUfunction kc = triton ? NULL : kernel_in(argv[3], nvf);
    cudaStream_t s;
    cublasHandle_t h;
    CK(cudaStreamCreate(&s));
    CKB(cublasCreate(&h));
    CKB(cublasSetStream(h, s));
    for (int step = 0; step < steps; step++) {
        float *w = fresh(ROWS * COLS, 1 + step, s), *x = fresh(M * COLS, 40 + step, s);
        float *wt = alloc(ROWS * COLS * 4, s), *p = alloc(ROWS * COLS * 4, s);
        float *y1 = alloc(M * ROWS * 4, s), *y2 = alloc(M * ROWS * 4, s);
        if (triton) {
            int yn = ROWS, xn = COLS;
            void *args[] = {&w, &wt, &yn, &xn};
            CKD(launch(kt, (ROWS * COLS + 127) / 128, 1, 1, 128, 1, 1, 0, (CUstream)s, args, NULL));
        } else {
            nvf_launch(kc, w, p, 0, s);
            nvf_launch(kt, w, wt, 1, s);
        }
        gemm(h, CUBLAS_OP_N, wt, ROWS, x, y1);
        show_y("Y1", step, y1, s);
        if (!triton) {
            gemm(h, CUBLAS_OP_T, p, COLS, x, y2);
            show_y("Y2", step, y2, s);
        }
        float *bufs[] = {wt, p, y1, y2, w, x};
        for (int i = 0; i < 6; i++) CK(cudaFreeAsync(bufs[i], s));
    }
    CK(cudaStreamSynchronize(s));
    CKB(cublasDestroy(h));
    printf("done\n");
    return 0;
}
