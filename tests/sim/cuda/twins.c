/* Kernel twins. A function object is interned once per device name and
 * lives for the process, so every module, library, CUkernel and CUfunction
 * naming the same kernel shares one object. The twin itself is looked up in
 * the SIMCUDA_KERNELS libraries, then in the process (twins linked into the
 * test program itself): first as exact symbols, then by asking each one's
 * simcuda_resolve (families of template instantiations, simcuda.h). */
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_MAX_TWIN_LIBS 64

static pthread_once_t libs_once = PTHREAD_ONCE_INIT;
static void *libs[SIM_MAX_TWIN_LIBS];
static size_t nlibs;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUfunc_st **funcs;
static size_t nfuncs, capfuncs;

static void load_libs(void)
{
    const char *env = getenv("SIMCUDA_KERNELS");
    char *list = env ? strdup(env) : NULL, *save = NULL;
    for (char *path = list ? strtok_r(list, ":", &save) : NULL; path && nlibs < SIM_MAX_TWIN_LIBS;
         path = strtok_r(NULL, ":", &save)) {
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            libs[nlibs++] = h;
        else
            fprintf(stderr, "simcuda: cannot load kernel twins %s: %s\n", path, dlerror());
    }
    free(list);
}

static void *find_symbol(const char *prefix, const char *name)
{
    char sym[1024];
    if ((size_t)snprintf(sym, sizeof sym, "%s%s", prefix, name) >= sizeof sym)
        return NULL;
    for (size_t i = 0; i < nlibs; i++) {
        void *p = dlsym(libs[i], sym);
        if (p)
            return p;
    }
    return dlsym(RTLD_DEFAULT, sym);
}

/* The first library (then the process) whose simcuda_resolve knows it. */
static bool resolve(const char *name, simcuda_twin *out)
{
    for (size_t i = 0; i <= nlibs; i++) {
        simcuda_resolve_fn r;
        *(void **)&r = dlsym(i < nlibs ? libs[i] : RTLD_DEFAULT, "simcuda_resolve");
        *out = (simcuda_twin){0};
        if (r && r(name, out) && out->fn)
            return true;
    }
    return false;
}

static struct CUfunc_st *create(const char *name)
{
    struct CUfunc_st *f = calloc(1, sizeof *f);
    if (!f || !(f->name = strdup(name))) {
        free(f);
        return NULL;
    }
    f->magic = SIM_MAGIC_FUNC;
    *(void **)&f->fn = find_symbol("simcuda_kernel_", name);
    f->param_sizes = find_symbol("simcuda_params_", name);
    *(void **)&f->reads = find_symbol("simcuda_reads_", name);
    simcuda_twin t;
    if (!f->fn && resolve(name, &t)) {
        f->fn = t.fn;
        f->param_sizes = t.param_sizes;
        f->reads = t.reads;
    }
    return f;
}

static bool append(struct CUfunc_st *f)
{
    if (nfuncs == capfuncs) {
        size_t cap = capfuncs ? capfuncs * 2 : 32;
        struct CUfunc_st **nf = realloc(funcs, cap * sizeof *nf);
        if (!nf)
            return false;
        funcs = nf;
        capfuncs = cap;
    }
    funcs[nfuncs++] = f;
    return true;
}

struct CUfunc_st *sim_function(const char *name)
{
    if (!name)
        return NULL;
    pthread_once(&libs_once, load_libs);
    pthread_mutex_lock(&lock);
    struct CUfunc_st *f = NULL;
    for (size_t i = 0; i < nfuncs && !f; i++)
        if (strcmp(funcs[i]->name, name) == 0)
            f = funcs[i];
    if (!f && (f = create(name)) && !append(f)) {
        free(f->name);
        free(f);
        f = NULL;
    }
    pthread_mutex_unlock(&lock);
    return f;
}

/* Membership, not a magic number: callers probe arbitrary pointers (a
 * host stub passed where a cudaKernel_t may be), which must not be read. */
bool sim_function_ok(const struct CUfunc_st *f)
{
    bool found = false;
    pthread_mutex_lock(&lock);
    for (size_t i = nfuncs; i-- > 0 && !found;)
        found = funcs[i] == f;
    pthread_mutex_unlock(&lock);
    return found;
}
