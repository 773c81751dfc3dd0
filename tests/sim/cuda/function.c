/* Questions about a function or kernel: its name, its parameter layout (from
 * the twin's simcuda_params_<name>), its attributes. */
#include "internal.h"

static CUresult get_name(const char **name, struct CUfunc_st *f)
{
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_function_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    *name = f->name;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetName(const char **name, CUfunction f) { return get_name(name, f); }
CUresult cuKernelGetName(const char **name, CUkernel k) { return get_name(name, (struct CUfunc_st *)k); }

/* Parameters are packed in order, each at the next multiple of its own size
 * (capped at 8), which is how the ABI lays out scalar and pointer
 * parameters; structs are assumed to be 8-aligned when 8 bytes or larger. */
static size_t align_for(size_t size)
{
    size_t a = 1;
    while (a < size && a < 8)
        a *= 2;
    return a;
}

static CUresult param_info(struct CUfunc_st *f, size_t index, size_t *offset, size_t *size)
{
    if (!sim_function_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!f->param_sizes)
        return CUDA_ERROR_INVALID_VALUE;
    size_t off = 0;
    for (size_t i = 0; f->param_sizes[i]; i++) {
        size_t a = align_for(f->param_sizes[i]);
        off = (off + a - 1) / a * a;
        if (i == index) {
            if (offset) *offset = off;
            if (size) *size = f->param_sizes[i];
            return CUDA_SUCCESS;
        }
        off += f->param_sizes[i];
    }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuFuncGetParamInfo(CUfunction f, size_t i, size_t *off, size_t *size) { return param_info(f, i, off, size); }
CUresult cuKernelGetParamInfo(CUkernel k, size_t i, size_t *off, size_t *size) { return param_info((struct CUfunc_st *)k, i, off, size); }

static CUresult attribute(int *value, CUfunction_attribute attr, struct CUfunc_st *f)
{
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_function_ok(f))
        return CUDA_ERROR_INVALID_HANDLE;
    switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 32; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = 90; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = 49152; break;
    default: *value = 0; break;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) { return attribute(v, a, f); }

CUresult cuKernelGetAttribute(int *v, CUfunction_attribute a, CUkernel k, CUdevice dev)
{
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return attribute(v, a, (struct CUfunc_st *)k);
}

/* Attribute setters are accepted and forgotten: nothing here depends on
 * them. */
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
    (void)a, (void)v;
    return sim_function_ok(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k, CUdevice dev)
{
    (void)a, (void)v;
    if (dev != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    return sim_function_ok((struct CUfunc_st *)k) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
