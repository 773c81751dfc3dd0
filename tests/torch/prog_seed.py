"""The seed's program in eager PyTorch: a weight materialized transposed
(t = W.t().contiguous()) before every GEMM that reads it, bf16, six steps
(the seed's shapes scaled down: x [B, 2, K], W [N, K])."""
import torch

from tfcheck import randn, report

W = randn(64, 96, dtype=torch.bfloat16)
for step in range(6):
    x = randn(6, 2, 96, dtype=torch.bfloat16)
    t = W.t().contiguous()
    out = torch.matmul(x, t)
    report(f"step{step}.t", t, exact=True)
    report(f"step{step}.out", out)
