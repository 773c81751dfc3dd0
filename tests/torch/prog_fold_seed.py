"""Issue 20: the seed's program in eager PyTorch, as a user writes it
(t = W.t().contiguous(); out = torch.matmul(x, t)), bf16, six steps, and
nothing but the matmul reading t. Every transposing copy is a producer from
its first launch (no rule, no learning) and folds into its GEMM; with
FLOAT set, a .float() of the output runs between the transposes (a decoded
launch whose bytes never touch them)."""
import os

import torch

from tfcheck import randn, report

W = randn(64, 96, dtype=torch.bfloat16)
outs = []
for step in range(6):
    x = randn(6, 2, 96, dtype=torch.bfloat16)
    t = W.t().contiguous()
    out = torch.matmul(x, t)
    outs.append(out.float() if os.environ.get("TF_FOLD_FLOAT") else out)
for step, out in enumerate(outs):
    report(f"step{step}.out", out)
