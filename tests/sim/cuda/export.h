/* The driver's private interfaces (cuGetExportTable), as far as the CUDA 13
 * static runtime needs them. Each table is an array of function pointers
 * looked up by UUID; most start with their own size in bytes. What each
 * slot does was learnt from public reverse engineering (ZLUDA's dark_api),
 * not from NVIDIA code. export.c: the lookup; export_runtime.c: the
 * runtime's own tables; export_cls.c: context-local storage; integrity.c:
 * the integrity check. */
#ifndef SIM_CUDA_EXPORT_H
#define SIM_CUDA_EXPORT_H
#include "internal.h"

/* Slot 0 of a sized table: its size in bytes. */
#define SIM_TABLE_SIZE(n) ((void *)(uintptr_t)(sizeof(void *) * (n)))

/* One table: its UUID (canonical text, lower case) and its slots. */
struct sim_export {
    const char *uuid;
    void **slots;
};

/* export_runtime.c, export_cls.c, integrity.c */
SIM_HIDDEN extern const struct sim_export sim_export_cudart, sim_export_tools_tls, sim_export_tools_hooks,
    sim_export_checks, sim_export_cls, sim_export_integrity;

/* What a slot the stand-in does not know answers (export.c): nothing known
 * calls one; if something does, the trace says which table's, and the call
 * fails cleanly. */
SIM_HIDDEN CUresult sim_export_unknown_slot(const struct sim_export *table);

/* export_cls.c: a context goes away (cuDevicePrimaryCtxReset): the
 * runtime's destroy callbacks run for what it stored there. */
SIM_HIDDEN void sim_cls_context_gone(CUcontext ctx);

#endif
