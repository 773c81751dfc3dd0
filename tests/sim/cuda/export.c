/* cuGetExportTable: the driver's private interfaces, looked up by UUID.
 * The CUDA 13 static runtime (nvcc's default) needs six of them before its
 * first call returns (export.h); it also asks for one it can do without
 * ({F8CFF951-2146-8B4E-B9E2-FB469E7C0DD9}, before cuInit). A UUID the
 * stand-in does not serve answers CUDA_ERROR_INVALID_VALUE (ZLUDA's answer
 * too), and the trace names it:
 *     {"op":"cuGetExportTable","unknown":"f8cff951-2146-8b4e-b9e2-fb469e7c0dd9"} */
#include "export.h"

#include <stdio.h>
#include <string.h>

static const struct sim_export *const tables[] = {
    &sim_export_cudart, &sim_export_tools_tls, &sim_export_tools_hooks,
    &sim_export_checks, &sim_export_cls,       &sim_export_integrity,
};

/* The canonical text form of a UUID as the runtime's bytes spell it. */
static void uuid_text(const CUuuid *id, char out[37])
{
    char *p = out;
    for (int i = 0; i < 16; i++) {
        p += sprintf(p, "%02x", (unsigned char)id->bytes[i]);
        if (i == 3 || i == 5 || i == 7 || i == 9)
            *p++ = '-';
    }
}

CUresult sim_export_unknown_slot(const struct sim_export *table)
{
    sim_trace("cuGetExportTable", "\"unknown_slot_of\":\"%s\"", table->uuid);
    return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGetExportTable(const void **table, const CUuuid *id)
{
    if (!table || !id)
        return CUDA_ERROR_INVALID_VALUE;
    char text[37];
    uuid_text(id, text);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (strcmp(tables[i]->uuid, text) == 0) {
            *table = tables[i]->slots;
            return CUDA_SUCCESS;
        }
    sim_trace("cuGetExportTable", "\"unknown\":\"%s\"", text);
    return CUDA_ERROR_INVALID_VALUE;
}
