/* Stream capture and graphs. A capture must not end with work that depends
 * on a deferral that has not run; a graph launch runs work we cannot
 * enumerate, whatever the policy. */
#include "describe.h"
#include "hooks.h"
#include "state.h"

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
