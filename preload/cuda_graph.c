/* Driver stream capture and graph launches (see cudart_graph.c). cuda.h
 * renames cuStreamBeginCapture to its _v2: only the _v2 ABI is hooked. */
#include "describe.h"
#include "hooks.h"
#include "state.h"

CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode m)
{
    TF_REAL_OR(cuStreamBeginCapture_v2, TF_MISSING_CUDA);
    tf_note_capture_begin(TF_ADDR(s));
    return TF_PASS(real(s, m));
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream s, CUstreamCaptureMode m)
{
    TF_REAL_OR(cuStreamBeginCapture_v2_ptsz, TF_MISSING_CUDA);
    tf_note_capture_begin(TF_PTSZ(s));
    return TF_PASS(real(s, m));
}

CUresult cuStreamEndCapture(CUstream s, CUgraph *g)
{
    TF_REAL_OR(cuStreamEndCapture, TF_MISSING_CUDA);
    tf_note_capture_end(TF_ADDR(s));
    return TF_PASS(real(s, g));
}

CUresult cuStreamEndCapture_ptsz(CUstream s, CUgraph *g)
{
    TF_REAL_OR(cuStreamEndCapture_ptsz, TF_MISSING_CUDA);
    tf_note_capture_end(TF_PTSZ(s));
    return TF_PASS(real(s, g));
}

CUresult cuGraphLaunch(CUgraphExec g, CUstream s)
{
    TF_REAL_OR(cuGraphLaunch, TF_MISSING_CUDA);
    tf_note_graph_launch(TF_ADDR(s));
    return TF_PASS(real(g, s));
}

CUresult cuGraphLaunch_ptsz(CUgraphExec g, CUstream s)
{
    TF_REAL_OR(cuGraphLaunch_ptsz, TF_MISSING_CUDA);
    tf_note_graph_launch(TF_PTSZ(s));
    return TF_PASS(real(g, s));
}
