/* Internals of the stand-in driver (libcuda.so.1). The helpers declared
 * here are hidden; the library exports only the cu* entry points
 * (exports.map), every one of them listed once in table.h. */
#ifndef SIM_CUDA_INTERNAL_H
#define SIM_CUDA_INTERNAL_H
/* Entry points bind to this library's own definitions (as -Bsymbolic
 * would): calls and table entries inside the stand-in must not be routed
 * to an interposer that exports the same names. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#pragma GCC visibility push(protected)
#include <cuda.h>
#pragma GCC visibility pop

#include "simcuda.h"
#include "trace.h"

/* For entry points declared outside cuda.h (see the pragma above). */
#define SIM_API __attribute__((visibility("protected")))

/* Handles are tagged so a stale or foreign handle is refused, not followed. */
enum { SIM_MAGIC_STREAM = 0x5354524d, SIM_MAGIC_EVENT = 0x45564e54,
       SIM_MAGIC_FUNC = 0x46554e43, SIM_MAGIC_MODULE = 0x4d4f444c,
       SIM_MAGIC_GRAPH = 0x47525048, SIM_MAGIC_EXEC = 0x45584543 };

/* The one device this stand-in pretends to have. */
#define SIM_DEVICE_MEM ((size_t)80 << 30)
#define SIM_DRIVER_VERSION 13000

struct sim_work;
struct sim_queue;
struct sim_sync;
/* While capturing, work is recorded (graph.c) instead of run; a stream
 * that joined another's capture (through an event) records into the
 * origin's list. `queue`: its work queue (async.h), made on first use. */
struct CUstream_st {
    uint32_t magic;
    unsigned flags;
    int priority;
    bool capturing;
    struct sim_work *captured;
    size_t ncaptured, capcaptured;
    struct CUstream_st *origin; /* whose capture it records into (itself when it began one) */
    CUstreamCaptureMode mode;
    struct sim_queue *queue;
};
/* sync: completion of its last record (async.h); capture: the capture it
 * was last recorded into, if any (waiting on it joins that capture). */
struct CUevent_st {
    uint32_t magic;
    unsigned flags;
    bool recorded;
    double ms;
    struct sim_sync *sync;
    struct CUstream_st *capture;
};
struct CUctx_st { int device; };

/* A function and a kernel are the same object, one per device name, so
 * cuKernelGetFunction and casts between CUkernel and CUfunction just work. */
struct CUfunc_st {
    uint32_t magic;
    char *name;
    simcuda_kernel_fn fn;      /* NULL: no twin, launches fail */
    const size_t *param_sizes; /* zero-terminated, NULL if unknown */
    simcuda_reads_fn reads;    /* NULL if the twin does not say */
    _Atomic bool told;         /* "no twin" said on stderr */
};

/* Modules and libraries hold nothing: functions resolve against the twins. */
/* variant: a PTX image's "// simcuda-variant: ID" comment, or empty; its
 * kernels are twins named <kernel>__<ID> (two modules may export one name
 * with different code). */
struct CUmod_st { uint32_t magic; char variant[32]; };

/* init.c */
SIM_HIDDEN CUcontext sim_primary_ctx(void);
/* The checks a query of the one device starts with, in the real driver's
 * order: a NULL result is INVALID_VALUE, then a device other than 0 is
 * INVALID_DEVICE. */
SIM_HIDDEN CUresult sim_device_query(const void *out, CUdevice dev);

/* alloc.c: the table of live allocations, by address range. */
enum sim_mem_kind { SIM_MEM_DEVICE = 1, SIM_MEM_HOST = 2, SIM_MEM_MANAGED = 3 };
SIM_HIDDEN void *sim_alloc(size_t bytes, enum sim_mem_kind kind);
SIM_HIDDEN CUresult sim_free(void *p, enum sim_mem_kind kind);
SIM_HIDDEN bool sim_lookup(const void *p, void **base, size_t *size, enum sim_mem_kind *kind);
SIM_HIDDEN size_t sim_bytes_in_use(void);
/* The default pool's accounting: a stream-ordered allocation marks its
 * block, whose bytes count until it is freed (by any free). */
SIM_HIDDEN void sim_mark_pooled(const void *p);
SIM_HIDDEN void sim_pool_usage(size_t *current, size_t *high, bool reset_high);
/* Graph allocations (memory.c): made while capturing, owned by the graph
 * from then on; the process keeps them (see memory.c). */
SIM_HIDDEN void sim_mark_graph(const void *p);
SIM_HIDDEN bool sim_graph_owned(const void *p);
/* memory.c: stream-ordered allocation, shared with the pool entry points. */
SIM_HIDDEN CUresult sim_alloc_async(const char *api, CUdeviceptr *dptr, size_t bytes, CUstream s);

/* stream.c */
SIM_HIDDEN bool sim_stream_ok(CUstream s);
/* The checks a query of a stream starts with: a NULL result is
 * INVALID_VALUE, then a stream that is not one is INVALID_HANDLE. */
SIM_HIDDEN CUresult sim_stream_query(CUstream s, const void *out);

/* twins.c: kernel twins from SIMCUDA_KERNELS. */
SIM_HIDDEN struct CUfunc_st *sim_function(const char *name);
SIM_HIDDEN bool sim_function_ok(const struct CUfunc_st *f);
/* twins_missing.c: says once on stderr, demangled, that f has no twin. */
SIM_HIDDEN void sim_function_missing(struct CUfunc_st *f);
/* The readable form of a demangled kernel name: no return type, no
 * parameter list, no at::native:: nor operator() noise. */
SIM_HIDDEN void sim_kernel_readable(const char *demangled, char *out, size_t cap);

/* tracename.c: the trace name of the operation `driver_api` is about to
 * perform: the runtime API that announced it, else driver_api itself. Call
 * once per operation, failed or not, so an announcement does not linger. */
SIM_HIDDEN const char *sim_op_name(const char *driver_api);

/* graph.c: turns a stream's capture into a graph; drops it on failure. */
SIM_HIDDEN CUresult sim_graph_from_capture(CUstream s, CUgraph *out);
SIM_HIDDEN void sim_capture_discard(CUstream s);

/* cuda.h maps these names to their newest versions (and no longer declares
 * the middle ones); the table exports every version under its own name. */
#undef cuStreamGetCaptureInfo
#undef cuStreamUpdateCaptureDependencies
SIM_API CUresult cuStreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id);
SIM_API CUresult cuStreamGetCaptureInfo_v2(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id, CUgraph *graph,
                                           const CUgraphNode **deps, size_t *ndeps);
SIM_API CUresult cuStreamUpdateCaptureDependencies(CUstream s, CUgraphNode *deps, size_t ndeps, unsigned flags);

/* Prototypes of the per-thread-stream variants, typed after their legacy
 * counterparts so a signature slip is a compile error. */
#define SIM_DRV(name, sym, psym, ver) extern SIM_API __typeof__(sym) psym;
#include "table.h"
#undef SIM_DRV

#endif
