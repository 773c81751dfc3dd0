/* Where do symbol lookups lead? For each lookup route, prints the library
 * the returned pointer lives in (dladdr) and its offset from that library's
 * base, so runs with and without transfold can be compared: hooked driver,
 * runtime and cuBLAS functions must lead into libtransfold.so under the
 * preload, and an unrelated lookup (libm's cos) must be unchanged.
 * Usage: hooks
 */
#include <cuda.h>
#include <cublasLt.h>
#include <dlfcn.h>
#include <math.h>

#include "common.h"

static void where(const char *what, void *p)
{
    Dl_info di;
    if (!p) {
        printf("%-48s NULL\n", what);
        return;
    }
    if (!dladdr(p, &di) || !di.dli_fname) {
        printf("%-48s unknown\n", what);
        return;
    }
    const char *base = strrchr(di.dli_fname, '/');
    printf("%-48s %s+0x%lx\n", what, base ? base + 1 : di.dli_fname,
           (unsigned long)((char *)p - (char *)di.dli_fbase));
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* what was printed survives a crash */
    CK(cudaFree(0));
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    void *cudart = dlopen("libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
    void *blas = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
    void *lt = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_LOCAL);
    void *libm = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!cuda || !cudart || !blas || !lt || !libm) {
        printf("dlopen failed\n");
        return 1;
    }

    /* route 2: dlopen + dlsym */
    where("dlsym(libcuda, cuLaunchKernel)", dlsym(cuda, "cuLaunchKernel"));
    where("dlsym(libcuda, cuLaunchKernelEx)", dlsym(cuda, "cuLaunchKernelEx"));
    where("dlsym(libcuda, cuMemAlloc_v2)", dlsym(cuda, "cuMemAlloc_v2"));
    where("dlsym(libcuda, cuGetProcAddress_v2)", dlsym(cuda, "cuGetProcAddress_v2"));
    where("dlsym(libcudart, cudaLaunchKernel)", dlsym(cudart, "cudaLaunchKernel"));
    where("dlsym(libcublas, cublasSgemm_v2)", dlsym(blas, "cublasSgemm_v2"));
    where("dlsym(libcublas, cublasSgeam)", dlsym(blas, "cublasSgeam"));
    where("dlsym(libcublasLt, cublasLtMatmul)", dlsym(lt, "cublasLtMatmul"));
    where("dlsym(RTLD_DEFAULT, cuLaunchKernel)", dlsym(RTLD_DEFAULT, "cuLaunchKernel"));

    /* route 3: cuGetProcAddress, including its self-lookup; NULL status */
    void *p = NULL, *gpa = NULL;
    CKD(cuGetProcAddress("cuLaunchKernel", &p, 12000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    where("cuGetProcAddress(cuLaunchKernel)", p);
    CKD(cuGetProcAddress("cuMemAlloc", &p, 12000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    where("cuGetProcAddress(cuMemAlloc)", p);
    CKD(cuGetProcAddress("cuGetProcAddress", &gpa, 12000, CU_GET_PROC_ADDRESS_DEFAULT, NULL));
    where("cuGetProcAddress(cuGetProcAddress)", gpa);
    CUresult (*gpa_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *) =
        (CUresult(*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *))gpa;
    CKD(gpa_fn("cuLaunchKernel", &p, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, NULL));
    where("cuGetProcAddress(cuLaunchKernel, ptds) via self", p);
    CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SUCCESS;
    printf("%-48s %d\n", "cuGetProcAddress(noSuchFunction) status",
           (int)cuGetProcAddress("cuNoSuchFunction", &p, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    printf("%-48s %d\n", "  symbolStatus", (int)st);

    /* route 4: the runtime's driver entry points */
    enum cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, cudaEnableDefault, &q));
    where("cudaGetDriverEntryPointByVersion(cuLaunchKernel)", p);
    CK(cudaGetDriverEntryPointByVersion("cuMemcpyHtoD", &p, 12000, cudaEnableDefault, &q));
    where("cudaGetDriverEntryPointByVersion(cuMemcpyHtoD)", p);

    /* unrelated lookups: identical with and without transfold */
    void *c1 = dlsym(libm, "cos"), *c2 = dlsym(RTLD_DEFAULT, "cos"), *c3 = dlsym(RTLD_NEXT, "cos");
    where("unrelated dlsym(libm, cos)", c1);
    where("unrelated dlsym(RTLD_DEFAULT, cos)", c2);
    where("unrelated dlsym(RTLD_NEXT, cos)", c3);
    double (*volatile cosp)(double) = cos;
    printf("unrelated cos lookups equal &cos: %d %d %d\n", c1 == (void *)cosp, c2 == (void *)cosp,
           c3 == (void *)cosp);
    printf("unrelated cos(0.5) via dlsym = %a\n", ((double (*)(double))c1)(0.5));
    printf("unrelated dlsym(libm, noSuchSymbol) = %p\n", dlsym(libm, "no_such_symbol_here"));
    printf("done\n");
    return 0;
}
