"""A captured graph (torch.cuda.graph): a transposing copy, a GEMM reading
it and an elementwise op, captured once and replayed on new inputs copied
into its static input. On the CPU the same steps run eagerly."""
import torch
import torch.nn.functional as F

from tfcheck import ON_CUDA, randn, report

W = randn(48, 32, dtype=torch.bfloat16)
static_x = randn(8, 48, dtype=torch.bfloat16)


def step():
    t = W.t().contiguous()
    return F.gelu(torch.matmul(static_x, t.t()))


if ON_CUDA:
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up, as torch.cuda.graph asks
        step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_out = step()
for i in range(3):
    static_x.copy_(randn(8, 48, dtype=torch.bfloat16))
    if ON_CUDA:
        g.replay()
        out = static_out
    else:
        out = step()
    report(f"replay{i}.out", out)
