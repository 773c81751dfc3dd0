/* Stream capture and graph launches, runtime and driver. A capture must
 * neither begin nor end with a deferral pending: one made before it would
 * otherwise be replayed into the graph instead of running now, one made
 * during it must be in the graph. A graph launch runs work we cannot
 * enumerate, whatever the policy. cuda.h renames cuStreamBeginCapture to its
 * _v2: only the _v2 ABI is hooked. */
#include "access_hook.h"
#include "describe.h"

#define RT(NAME, PARAMS, ARGS, BEFORE) TF_BEFORE_HOOK(cudaError_t, TF_MISSING_CUDART, NAME, PARAMS, ARGS, BEFORE)
#define CU(NAME, PARAMS, ARGS, BEFORE) TF_BEFORE_HOOK(CUresult, TF_MISSING_CUDA, NAME, PARAMS, ARGS, BEFORE)

/* One event in its four entry points: runtime and driver, each in its
 * legacy and per-thread form; NOTE gets the stream id. */
#define FAMILY(RT_NAME, CU_NAME, RT_PARAMS, CU_PARAMS, ARGS, NOTE) \
    RT(RT_NAME, RT_PARAMS, ARGS, NOTE(TF_STREAM(s)))               \
    RT(RT_NAME##_ptsz, RT_PARAMS, ARGS, NOTE(TF_PTSZ(s)))          \
    CU(CU_NAME, CU_PARAMS, ARGS, NOTE(TF_STREAM(s)))               \
    CU(CU_NAME##_ptsz, CU_PARAMS, ARGS, NOTE(TF_PTSZ(s)))

FAMILY(cudaStreamBeginCapture, cuStreamBeginCapture_v2, (cudaStream_t s, enum cudaStreamCaptureMode m),
       (CUstream s, CUstreamCaptureMode m), (s, m), tf_note_capture_begin)
FAMILY(cudaStreamEndCapture, cuStreamEndCapture, (cudaStream_t s, cudaGraph_t *g), (CUstream s, CUgraph *g), (s, g),
       tf_note_capture_end)
FAMILY(cudaGraphLaunch, cuGraphLaunch, (cudaGraphExec_t g, cudaStream_t s), (CUgraphExec g, CUstream s), (g, s),
       tf_note_graph_launch)
