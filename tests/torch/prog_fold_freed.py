"""Transposed copies that die (issue 20, item 5): PyTorch's caching
allocator keeps a dead tensor's block without a CUDA call, and says so only
to c10::reportMemoryUsageToProfiler, which transfold hooks. Each step makes
t = W.t().contiguous(), multiplies with it, lets t die, then updates W in
place (as an optimizer step does): the copy never runs, though its source
changes. A transposed copy still alive when its source changes must run
before the change (its old values are read later), and one deleted only
after a plain copy of it was taken must run too."""
import torch

from tfcheck import dtypes, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    W = randn(64, 96, dtype=dt)
    x = randn(8, 96, dtype=dt)
    for step in range(3):
        t = W.t().contiguous()
        out = torch.matmul(x, t)
        del t
        W.mul_(0.5)
        report(f"{name}.step{step}.out", out)
    kept = W.t().contiguous()
    out = torch.matmul(x, kept)
    W.mul_(0.5)
    report(f"{name}.kept.out", out)
    report(f"{name}.kept", kept)
    t = W.t().contiguous()
    copy = t.clone()
    del t
    report(f"{name}.copy", copy)
