"""The seed's loop and a training step under PYTORCH_CUDA_ALLOC_CONF=
backend:cudaMallocAsync: every allocation and free is a stream-ordered pool
call (cudaMallocAsync / cudaFreeAsync), empty_cache trims the pool."""
import os

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from tfcheck import ON_CUDA, randn, report  # noqa: E402

if ON_CUDA:
    print("backend", torch.cuda.get_allocator_backend())
W = randn(64, 96, dtype=torch.bfloat16)
for step in range(4):
    x = randn(6, 96, dtype=torch.bfloat16)
    t = W.t().contiguous()
    out = torch.matmul(x, t)
    report(f"step{step}.out", out)
    del t
    if ON_CUDA and step == 1:
        torch.cuda.empty_cache()
W1 = randn(24, 16, scale=0.2).requires_grad_()
opt = torch.optim.SGD([W1], lr=0.1)
for step in range(2):
    loss = F.mse_loss(torch.matmul(randn(4, 16), W1.t().contiguous()), randn(4, 24))
    opt.zero_grad()
    loss.backward()
    opt.step()
    report(f"train{step}.loss", loss)
report("train.W1", W1)

# A captured graph under this backend: its allocations are graph
# allocations (stream-ordered, on the capturing stream).
static_x = randn(8, 96, dtype=torch.bfloat16)


def step():
    return torch.matmul(static_x, W.t().contiguous().t())


if ON_CUDA:
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        step()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_out = step()
for i in range(2):
    static_x.copy_(randn(8, 96, dtype=torch.bfloat16))
    if ON_CUDA:
        g.replay()
    report(f"graph{i}.out", static_out if ON_CUDA else step())
