/* Modules and libraries accept any image: the stand-in never reads device
 * code, it resolves kernel names against the twins. cuModuleGetFunction is
 * strict (no twin: NOT_FOUND, as for a name missing from a real module);
 * cuLibraryGetKernel hands out a handle for any name and the launch fails,
 * so the runtime's registration never fails for kernels a test never runs. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CUlib_st { uint32_t magic; };

static CUmodule new_module(void)
{
    struct CUmod_st *m = calloc(1, sizeof *m);
    if (m)
        m->magic = SIM_MAGIC_MODULE;
    return m;
}

/* PTX text (it starts with a comment) may name its variant. */
static void read_variant(struct CUmod_st *m, const char *image)
{
    const char *tag = strncmp(image, "//", 2) == 0 ? strstr(image, "// simcuda-variant: ") : NULL;
    size_t n = 0;
    for (tag = tag ? tag + 20 : NULL; tag && n + 1 < sizeof m->variant && (isalnum(tag[n]) || tag[n] == '_'); n++)
        m->variant[n] = tag[n];
}

static CUresult load(CUmodule *out, const void *image)
{
    if (!out || !image)
        return CUDA_ERROR_INVALID_VALUE;
    *out = new_module();
    if (*out)
        read_variant(*out, image);
    return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuModuleLoadData(CUmodule *m, const void *image) { return load(m, image); }
CUresult cuModuleLoad(CUmodule *m, const char *fname) { return load(m, fname); }
CUresult cuModuleLoadFatBinary(CUmodule *m, const void *fatbin) { return load(m, fatbin); }

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *opts, void **vals)
{
    (void)n, (void)opts, (void)vals;
    return load(m, image);
}

/* Modules and libraries carry the same tag. TAG(h) points at a handle's tag
 * without reading it (NULL for a NULL handle): a handle is read only once
 * the other arguments have passed their checks. */
#define TAG(h) ((h) ? &(h)->magic : NULL)
static bool tagged(const uint32_t *magic) { return magic && *magic == SIM_MAGIC_MODULE; }

/* Unloading clears the tag but keeps the object allocated, so a stale
 * handle is refused rather than followed. */
static CUresult untag(uint32_t *magic)
{
    if (!tagged(magic))
        return CUDA_ERROR_INVALID_HANDLE;
    *magic = 0;
    return CUDA_SUCCESS;
}

/* The checks and the twin lookup that cuModuleGetFunction and
 * cuLibraryGetKernel share; they differ in what a name without a twin gets. */
static CUresult find(const void *out, const uint32_t *magic, const char *name, struct CUfunc_st **f)
{
    if (!out || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!tagged(magic))
        return CUDA_ERROR_INVALID_HANDLE;
    *f = sim_function(name);
    return *f ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuModuleUnload(CUmodule m) { return untag(TAG(m)); }

CUresult cuModuleGetFunction(CUfunction *out, CUmodule m, const char *name)
{
    struct CUfunc_st *f;
    char variant[1024];
    if (m && name && m->magic == SIM_MAGIC_MODULE && m->variant[0] &&
        (size_t)snprintf(variant, sizeof variant, "%s__%s", name, m->variant) < sizeof variant)
        name = variant;
    CUresult r = find(out, TAG(m), name, &f);
    if (r == CUDA_SUCCESS && !f->fn)
        r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS)
        *out = f;
    return r;
}

static CUresult load_library(CUlibrary *out, const void *code)
{
    if (!out || !code)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUlib_st *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    l->magic = SIM_MAGIC_MODULE;
    *out = l;
    return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *lib, const void *code, CUjit_option *jo, void **jv, unsigned int nj,
                           CUlibraryOption *lo, void **lv, unsigned int nl)
{
    (void)jo, (void)jv, (void)nj, (void)lo, (void)lv, (void)nl;
    return load_library(lib, code);
}

CUresult cuLibraryLoadFromFile(CUlibrary *lib, const char *path, CUjit_option *jo, void **jv, unsigned int nj,
                               CUlibraryOption *lo, void **lv, unsigned int nl)
{
    (void)jo, (void)jv, (void)nj, (void)lo, (void)lv, (void)nl;
    return load_library(lib, path);
}

CUresult cuLibraryUnload(CUlibrary l) { return untag(TAG(l)); }

CUresult cuLibraryGetKernel(CUkernel *out, CUlibrary l, const char *name)
{
    struct CUfunc_st *f;
    CUresult r = find(out, TAG(l), name, &f);
    if (r == CUDA_SUCCESS)
        *out = (CUkernel)f;
    return r;
}

CUresult cuLibraryGetModule(CUmodule *out, CUlibrary l)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!tagged(TAG(l)))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = new_module();
    return *out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuKernelGetFunction(CUfunction *out, CUkernel k)
{
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_function_ok((struct CUfunc_st *)k))
        return CUDA_ERROR_INVALID_HANDLE;
    *out = (CUfunction)k;
    return CUDA_SUCCESS;
}

/* As the real driver: CUDA_MODULE_LOADING=EAGER asks for eager loading,
 * anything else is lazy (the default since CUDA 12.2). The static runtime
 * then loads its fat binaries through cuGetExportTable (export_runtime.c)
 * or cuLibraryLoadData; the stand-in resolves kernels on first use either
 * way. */
CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    if (!mode)
        return CUDA_ERROR_INVALID_VALUE;
    const char *env = getenv("CUDA_MODULE_LOADING");
    *mode = env && strcmp(env, "EAGER") == 0 ? CU_MODULE_EAGER_LOADING : CU_MODULE_LAZY_LOADING;
    return CUDA_SUCCESS;
}
