"""Attention as nanoGPT writes it by hand: q, k, v split from one fused
projection and viewed as heads, then q @ k.transpose(-2, -1). k has two
batch dimensions (batch, head) over one allocation, so matmul itself copies
k transposed into one batch dimension: a transposing copy of two batch
levels, which folds as one strided-batched GEMM per sequence. Forward and
backward, in float32, bfloat16 and float16, batch 2 and 3."""
import math

import torch

from tfcheck import dtypes, randn, report, settle_autograd

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    for B, T, nh, hs in ((2, 16, 3, 8), (3, 8, 4, 4)):
        C = nh * hs
        x = randn(B, T, C, dtype=dt)
        Wa = randn(3 * C, C, dtype=dt, scale=0.2).requires_grad_()
        q, k, v = torch.matmul(x, Wa.t()).split(C, dim=2)
        q = q.view(B, T, nh, hs).transpose(1, 2)
        k = k.view(B, T, nh, hs).transpose(1, 2)
        v = v.view(B, T, nh, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        report(f"{name}.B{B}.y", y)
        y.float().square().mean().backward()
        report(f"{name}.B{B}.Wa.grad", Wa.grad)
keep = settle_autograd()
