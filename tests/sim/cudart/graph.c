/* Graphs made by stream capture: forwards to the driver (cudaGraph_t and
 * cudaGraphExec_t are CUgraph and CUgraphExec). */
#include "internal.h"

cudaError_t cudaGraphCreate(cudaGraph_t *g, unsigned int flags)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuGraphCreate)(g, flags));
}

cudaError_t cudaGraphDestroy(cudaGraph_t g)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuGraphDestroy)(g));
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuGraphInstantiate)(e, g, flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags)
{
    return cudaGraphInstantiate(e, g, flags);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuGraphExecDestroy)(e));
}

static cudaError_t launch(const char *op, bool pt, cudaGraphExec_t e, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    CUresult r = SIM_RT_AS(op, "cuGraphLaunch", DRV(d, cuGraphLaunch)(e, s));
    return sim_rt_result(r);
}

SIM_API __typeof__(cudaGraphLaunch) cudaGraphLaunch_ptsz;
cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) { return launch("cudaGraphLaunch", false, e, s); }
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t e, cudaStream_t s) { return launch("cudaGraphLaunch_ptsz", true, e, s); }

cudaError_t cudaGraphGetNodes(cudaGraph_t g, cudaGraphNode_t *nodes, size_t *count)
{
    SIM_RT_DRIVER(d, false);
    return sim_rt_result(DRV(d, cuGraphGetNodes)(g, nodes, count));
}

static cudaError_t upload(bool pt, cudaGraphExec_t e, cudaStream_t s)
{
    SIM_RT_DRIVER(d, pt);
    return sim_rt_result(DRV(d, cuGraphUpload)(e, s));
}

SIM_API __typeof__(cudaGraphUpload) cudaGraphUpload_ptsz;
cudaError_t cudaGraphUpload(cudaGraphExec_t e, cudaStream_t s) { return upload(false, e, s); }
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t e, cudaStream_t s) { return upload(true, e, s); }
