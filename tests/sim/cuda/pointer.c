/* cuPointerGetAttribute(s): answers from the allocation table. Unknown
 * pointers are host memory the driver never saw: INVALID_VALUE, as real. */
#include "internal.h"

#include <string.h>

static CUresult put(void *data, const void *v, size_t n)
{
    memcpy(data, v, n);
    return CUDA_SUCCESS;
}

static CUresult attribute(void *data, CUpointer_attribute attr, void *base, size_t size,
                          enum sim_mem_kind kind, CUdeviceptr ptr)
{
    unsigned int one = 1, zero = 0, type = kind == SIM_MEM_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    int ordinal = 0;
    CUcontext ctx = sim_primary_ctx();
    unsigned long long id = (unsigned long long)(uintptr_t)base;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: return put(data, &ctx, sizeof ctx);
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: return put(data, &type, sizeof type);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: return put(data, &ptr, sizeof ptr);
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: return put(data, kind == SIM_MEM_MANAGED ? &one : &zero, sizeof one);
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: return put(data, &ordinal, sizeof ordinal);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: return put(data, &id, sizeof id);
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: return put(data, &base, sizeof base);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: return put(data, &size, sizeof size);
    case CU_POINTER_ATTRIBUTE_MAPPED: return put(data, &one, sizeof one);
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: return put(data, &one, sizeof one);
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attr, CUdeviceptr ptr)
{
    void *base;
    size_t size;
    enum sim_mem_kind kind;
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_lookup((void *)ptr, &base, &size, &kind))
        return CUDA_ERROR_INVALID_VALUE;
    return attribute(data, attr, base, size, kind, ptr);
}

/* What the plural form reports for a pointer the driver never saw: memory
 * type 0 (unregistered), ordinal -2, zero/NULL for the rest. Booleans and
 * enums are 4 bytes, handles and addresses 8. */
static void unregistered(void *data, CUpointer_attribute attr)
{
    int none = -2;
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: put(data, &none, sizeof none); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
    case CU_POINTER_ATTRIBUTE_MAPPED:
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: memset(data, 0, sizeof(unsigned int)); break;
    default: memset(data, 0, sizeof(void *)); break;
    }
}

/* The plural form reports unknown pointers as unregistered instead of
 * failing; the runtime's cudaPointerGetAttributes relies on that. */
CUresult cuPointerGetAttributes(unsigned int n, CUpointer_attribute *attrs, void **data, CUdeviceptr ptr)
{
    void *base;
    size_t size;
    enum sim_mem_kind kind;
    if (!attrs || !data)
        return CUDA_ERROR_INVALID_VALUE;
    bool known = sim_lookup((void *)ptr, &base, &size, &kind);
    for (unsigned int i = 0; i < n; i++) {
        if (!data[i])
            continue;
        if (known) {
            attribute(data[i], attrs[i], base, size, kind, ptr);
        } else {
            unregistered(data[i], attrs[i]);
        }
    }
    return CUDA_SUCCESS;
}
