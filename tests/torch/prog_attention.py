"""An attention block: batched matmul with a materialized transposed key
(k.transpose(-2, -1).contiguous(), a batched transpose feeding a
strided-batched GEMM), softmax, the value GEMM, a residual add and layer
norm, in float32, bfloat16 and float16."""
import math

import torch
import torch.nn.functional as F

from tfcheck import dtypes, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    B, H, S, D = 2, 3, 16, 8
    x = randn(B, S, H * D, dtype=dt)
    Wqkv = randn(3 * H * D, H * D, dtype=dt, scale=0.2)
    gamma = randn(H * D, dtype=dt)
    beta = randn(H * D, dtype=dt)
    qkv = torch.matmul(x, Wqkv.t())
    q, k, v = (p.reshape(B, S, H, D).transpose(1, 2) for p in qkv.chunk(3, dim=-1))
    kt = k.transpose(-2, -1).contiguous()
    scores = torch.matmul(q, kt) / math.sqrt(D)
    probs = torch.softmax(scores, dim=-1)
    ctx = torch.matmul(probs, v).transpose(1, 2).reshape(B, S, H * D)
    out = F.layer_norm(x + ctx, (H * D,), gamma, beta)
    report(f"{name}.kt", kt, exact=True)
    report(f"{name}.scores", scores)
    report(f"{name}.probs", probs)
    report(f"{name}.out", out)
