/* Stream capture: between Begin and End, work on the stream is recorded
 * (graph.c) instead of run, and End hands it back as a graph. Only user
 * streams can be captured, as on a GPU; the capture mode is not modelled
 * (work on other streams keeps running). */
#include "work.h"

static CUresult begin(CUstream s, CUstreamCaptureMode mode)
{
    (void)mode;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    if (s->magic != SIM_MAGIC_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (s->capturing)
        return CUDA_ERROR_ILLEGAL_STATE;
    sim_capture_discard(s);
    s->capturing = true;
    return CUDA_SUCCESS;
}

static CUresult end(CUstream s, CUgraph *graph)
{
    if (!graph)
        return CUDA_ERROR_INVALID_VALUE;
    if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD || s->magic != SIM_MAGIC_STREAM)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!s->capturing)
        return CUDA_ERROR_ILLEGAL_STATE;
    s->capturing = false;
    return sim_graph_from_capture(s, graph);
}

static CUresult is_capturing(CUstream s, CUstreamCaptureStatus *status)
{
    CUresult r = sim_stream_query(s, status);
    if (r == CUDA_SUCCESS)
        *status = sim_capturing(s) ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return r;
}

CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m) { return begin(s, m); }
CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m) { return begin(s, m); }
CUresult cuStreamEndCapture(CUstream s, CUgraph *g) { return end(s, g); }
CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g) { return end(s, g); }
CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *st) { return is_capturing(s, st); }
CUresult cuStreamIsCapturing_ptsz(CUstream s, CUstreamCaptureStatus *st) { return is_capturing(s, st); }
