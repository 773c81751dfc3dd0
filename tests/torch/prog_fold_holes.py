"""Holes (analysis/engine/holes.c): a live transposed tensor partly
overwritten in place (a dense slice copied from the host: one
cudaMemcpyAsync) and then read whole by a GEMM. The
transposing copy stays pending with the slice as a hole; the GEMM's operand
overlaps the hole, so it does not fold: the copy is replayed into scratch
and only the bytes outside the hole are copied back. Every result equals
--without bitwise in every mode."""
import torch

from tfcheck import randn, report

W = randn(64, 96, dtype=torch.bfloat16)
for step in range(3):
    x = randn(6, 2, 96, dtype=torch.bfloat16)
    t = W.t().contiguous()  # [96, 64]
    t[8:16].copy_(torch.full((8, 64), step + 1.0, dtype=torch.bfloat16))  # rows 8..15: 1 KiB inside t
    out = torch.matmul(x, t)
    report(f"step{step}.out", out)
    report(f"step{step}.t", t)
