/* The registration half of the launch ABI that nvcc emits: each fat binary
 * registers its kernels (host stub -> device name) from a static
 * constructor. Nothing touches the driver then; the fat binary becomes a
 * driver library (cuLibraryLoadData) and each kernel a CUkernel
 * (cuLibraryGetKernel) on first use, as the real runtime's lazy loading
 * does. The CUkernel is the cudaKernel_t handed out by __cudaGetKernel. */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* nvcc wraps the fat binary: {magic, version, data, filename_or_fatbins}. */
#define SIM_FATBIN_WRAPPER_MAGIC 0x466243b1

struct sim_fatbin {
    const void *image; /* first: the handle nvcc keeps points here */
    CUlibrary lib;
};

struct sim_reg {
    const void *host_fn;
    char *name;
    struct sim_fatbin *fatbin;
    CUkernel kernel;
};

/* Recursive: the driver calls made under it may reach an interposer that
 * calls back into the runtime. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct sim_reg *regs;
static size_t nregs, capregs;

SIM_API void **__cudaRegisterFatBinary(void *fatCubin);
SIM_API void __cudaRegisterFatBinaryEnd(void **handle);
SIM_API void __cudaUnregisterFatBinary(void **handle);
SIM_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
SIM_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global);
SIM_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global);
SIM_API char __cudaInitModule(void **handle);
SIM_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);

void **__cudaRegisterFatBinary(void *fatCubin)
{
    struct sim_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb)
        abort(); /* the real runtime cannot report this either */
    const struct { int magic, version; const void *data; void *rest; } *w = fatCubin;
    fb->image = w && w->magic == SIM_FATBIN_WRAPPER_MAGIC ? w->data : fatCubin;
    return (void **)&fb->image;
}

void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun, const char *deviceName,
                            int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    char *name = strdup(deviceName);
    pthread_mutex_lock(&lock);
    if (nregs == capregs) {
        size_t cap = capregs ? capregs * 2 : 32;
        struct sim_reg *nr = realloc(regs, cap * sizeof *nr);
        if (!nr || !name)
            abort();
        regs = nr;
        capregs = cap;
    }
    regs[nregs++] = (struct sim_reg){hostFun, name, (struct sim_fatbin *)handle, NULL};
    pthread_mutex_unlock(&lock);
}

/* Device variables live in device code the stand-in never runs. */
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName, int ext,
                       size_t size, int constant, int global)
{
    (void)handle, (void)hostVar, (void)deviceAddress, (void)deviceName, (void)ext, (void)size, (void)constant,
        (void)global;
}

void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)handle, (void)hostVarPtrAddress, (void)deviceAddress, (void)deviceName, (void)ext, (void)size,
        (void)constant, (void)global;
}

char __cudaInitModule(void **handle)
{
    (void)handle;
    return 1;
}

void __cudaUnregisterFatBinary(void **handle)
{
    struct sim_fatbin *fb = (struct sim_fatbin *)handle;
    pthread_mutex_lock(&lock);
    size_t kept = 0;
    for (size_t i = 0; i < nregs; i++) {
        if (regs[i].fatbin == fb)
            free(regs[i].name);
        else
            regs[kept++] = regs[i];
    }
    nregs = kept;
    pthread_mutex_unlock(&lock);
    /* A loaded library implies the driver is up; never bootstrap at exit. */
    if (fb->lib) {
        const struct sim_drv *d = sim_rt_drv();
        if (d)
            DRV(d, cuLibraryUnload)(fb->lib);
    }
    free(fb);
}

static struct sim_reg *find(const void *host_fn)
{
    for (size_t i = 0; i < nregs; i++)
        if (regs[i].host_fn == host_fn)
            return &regs[i];
    return NULL;
}

static CUresult load_kernel(const struct sim_drv *d, struct sim_reg *r)
{
    CUresult res = CUDA_SUCCESS;
    if (!r->fatbin->lib)
        res = DRV(d, cuLibraryLoadData)(&r->fatbin->lib, r->fatbin->image, NULL, NULL, 0, NULL, NULL, 0);
    if (res == CUDA_SUCCESS)
        res = DRV(d, cuLibraryGetKernel)(&r->kernel, r->fatbin->lib, r->name);
    return res;
}

cudaError_t sim_rt_kernel_for(const void *host_fn, CUkernel *out)
{
    SIM_RT_DRIVER(d, false);
    pthread_mutex_lock(&lock);
    struct sim_reg *r = find(host_fn);
    CUresult res = r ? (r->kernel ? CUDA_SUCCESS : load_kernel(d, r)) : CUDA_ERROR_NOT_FOUND;
    if (res == CUDA_SUCCESS)
        *out = r->kernel;
    pthread_mutex_unlock(&lock);
    if (res == CUDA_ERROR_NOT_FOUND)
        return cudaErrorInvalidDeviceFunction;
    return sim_rt_error(res);
}

/* nvcc caches the handle in a static of each stub on first launch. */
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    if (!kernel)
        return sim_rt_return(cudaErrorInvalidValue);
    return sim_rt_return(sim_rt_kernel_for(hostFun, (CUkernel *)kernel));
}

cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr)
{
    return __cudaGetKernel(kernel, entryFuncAddr);
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    if (!name)
        return sim_rt_return(cudaErrorInvalidValue);
    pthread_mutex_lock(&lock);
    struct sim_reg *r = find(func);
    *name = r ? r->name : NULL;
    pthread_mutex_unlock(&lock);
    return r ? cudaSuccess : sim_rt_return(cudaErrorInvalidDeviceFunction);
}
