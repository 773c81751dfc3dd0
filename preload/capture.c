/* Stream capture and graph launches, runtime and driver. A capture must
 * neither begin nor end with a deferral pending: one made before it would
 * otherwise be replayed into the graph instead of running now, one made
 * during it must be in the graph. A graph launch runs work we cannot
 * enumerate, whatever the policy. cuda.h renames cuStreamBeginCapture to its
 * _v2: only the _v2 ABI is hooked. */
#include "calls/access_hook.h"
#include "calls/describe.h"
#include "streams/stream_order.h"

#define RT(NAME, PARAMS, ARGS, BEFORE) TF_BEFORE_HOOK(cudaError_t, TF_MISSING_CUDART, NAME, PARAMS, ARGS, BEFORE)
#define CU(NAME, PARAMS, ARGS, BEFORE) TF_BEFORE_HOOK(CUresult, TF_MISSING_CUDA, NAME, PARAMS, ARGS, BEFORE)

/* One event in its four entry points: runtime and driver, each in its
 * legacy and per-thread form; NOTE gets the stream id. */
#define FAMILY(RT_NAME, CU_NAME, RT_PARAMS, CU_PARAMS, ARGS, NOTE) \
    RT(RT_NAME, RT_PARAMS, ARGS, NOTE(TF_STREAM(s)))               \
    RT(RT_NAME##_ptsz, RT_PARAMS, ARGS, NOTE(TF_PTSZ(s)))          \
    CU(CU_NAME, CU_PARAMS, ARGS, NOTE(TF_STREAM(s)))               \
    CU(CU_NAME##_ptsz, CU_PARAMS, ARGS, NOTE(TF_PTSZ(s)))

/* Begin and end also count captures, and an end first runs the records
 * of streams that joined (stream_order.c). */
#define COUNTED(RET, MISSING, NAME, PARAMS, ARGS, BEFORE, DELTA) \
    RET NAME PARAMS                                              \
    {                                                            \
        TF_REAL_OR(NAME, MISSING);                               \
        BEFORE;                                                  \
        RET r = TF_PASS(real ARGS);                              \
        if (r == 0)                                              \
            pl_captures_changed(DELTA);                          \
        return r;                                                \
    }
#define CAPTURE_FAMILY(RT_NAME, CU_NAME, RT_PARAMS, CU_PARAMS, ARGS, NOTE, DELTA)                         \
    COUNTED(cudaError_t, TF_MISSING_CUDART, RT_NAME, RT_PARAMS, ARGS, NOTE(TF_STREAM(s)), DELTA)         \
    COUNTED(cudaError_t, TF_MISSING_CUDART, RT_NAME##_ptsz, RT_PARAMS, ARGS, NOTE(TF_PTSZ(s)), DELTA)    \
    COUNTED(CUresult, TF_MISSING_CUDA, CU_NAME, CU_PARAMS, ARGS, NOTE(TF_STREAM(s)), DELTA)              \
    COUNTED(CUresult, TF_MISSING_CUDA, CU_NAME##_ptsz, CU_PARAMS, ARGS, NOTE(TF_PTSZ(s)), DELTA)

static void capture_end(uint64_t stream)
{
    pl_capture_joined_end();
    pl_note_capture_end(stream);
}

CAPTURE_FAMILY(cudaStreamBeginCapture, cuStreamBeginCapture_v2, (cudaStream_t s, enum cudaStreamCaptureMode m),
               (CUstream s, CUstreamCaptureMode m), (s, m), pl_note_capture_begin, 1)
CAPTURE_FAMILY(cudaStreamEndCapture, cuStreamEndCapture, (cudaStream_t s, cudaGraph_t *g), (CUstream s, CUgraph *g),
               (s, g), capture_end, -1)
FAMILY(cudaGraphLaunch, cuGraphLaunch, (cudaGraphExec_t g, cudaStream_t s), (CUgraphExec g, CUstream s), (g, s),
       pl_note_graph_launch)
