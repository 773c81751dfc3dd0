/* Stream capture and graphs. A capture must neither begin nor end with a
 * deferral pending: one made before it would otherwise be replayed into the
 * graph instead of running now, one made during it must be in the graph. A
 * graph launch runs work we cannot enumerate, whatever the policy. */
#include "describe.h"
#include "hooks.h"
#include "state.h"

cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode m)
{
    TF_REAL_OR(cudaStreamBeginCapture, TF_MISSING_CUDART);
    tf_note_capture_begin(TF_ADDR(s));
    return TF_PASS(real(s, m));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, enum cudaStreamCaptureMode m)
{
    TF_REAL_OR(cudaStreamBeginCapture_ptsz, TF_MISSING_CUDART);
    tf_note_capture_begin(tf_stream_ptsz(s));
    return TF_PASS(real(s, m));
}

cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g)
{
    TF_REAL_OR(cudaStreamEndCapture, TF_MISSING_CUDART);
    tf_note_capture_end(TF_ADDR(s));
    return TF_PASS(real(s, g));
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t *g)
{
    TF_REAL_OR(cudaStreamEndCapture_ptsz, TF_MISSING_CUDART);
    tf_note_capture_end(tf_stream_ptsz(s));
    return TF_PASS(real(s, g));
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t g, cudaStream_t s)
{
    TF_REAL_OR(cudaGraphLaunch, TF_MISSING_CUDART);
    tf_note_graph_launch(TF_ADDR(s));
    return TF_PASS(real(g, s));
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t g, cudaStream_t s)
{
    TF_REAL_OR(cudaGraphLaunch_ptsz, TF_MISSING_CUDART);
    tf_note_graph_launch(tf_stream_ptsz(s));
    return TF_PASS(real(g, s));
}
