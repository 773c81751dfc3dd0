"""Issue 20: the seed's program (t = W.t().contiguous(); matmul(x, t)), bf16,
six steps, with ATen launches of other families between each transpose and
its GEMM: torch.randn on the device (distribution_elementwise_grid_stride_
kernel), dropout (fused_dropout_kernel_vec), a .sum() (reduce_kernel) and an add that casts (float + bf16:
unrolled_elementwise_kernel with LoadWithCast), and a strided one (bf16 slice
+ float: elementwise_kernel's casting closure), and an optimizer-like
foreach update of a list of parameters (multi_tensor_apply_kernel). Each is decoded into exact
byte ranges that never touch t or W, so every transpose still folds.
The device's random draws differ from the CPU's: what depends on them is
printed (compared bit for bit between transfold's modes) but not kept for
compare.py."""
import hashlib

import torch

from tfcheck import DEVICE, ON_CUDA, randn, report, sync


def printed(name, t):
    sync()
    c = t.detach().cpu().contiguous()
    raw = bytes(c.reshape(-1).view(torch.uint8).tolist())
    print(f"{name} {str(c.dtype).replace('torch.', '')} {list(c.shape)} "
          f"{hashlib.sha256(raw).hexdigest()[:16]}", flush=True)


if ON_CUDA:
    torch.cuda.manual_seed(7)
W = randn(64, 96, dtype=torch.bfloat16)
h = randn(6, 2, 96, dtype=torch.bfloat16)
g = randn(6, 2, 48)
params = [randn(40), randn(7, 9)]
grads = [randn(40), randn(7, 9)]
outs = []
for step in range(6):
    x = randn(6, 2, 96, dtype=torch.bfloat16)
    t = W.t().contiguous()
    noise = torch.randn(6, 2, 64, device=DEVICE, dtype=torch.bfloat16)
    dropped = torch.nn.functional.dropout(h, 0.25)
    s = x.sum()
    mixed = x.float() * 0.5 + h
    sliced = x[..., ::2] + g
    torch._foreach_add_(params, grads, alpha=-0.125)
    torch._foreach_mul_(params, 0.5)
    out = torch.matmul(x, t)
    outs.append((out, noise, s, mixed, sliced, dropped))
for step, (out, noise, s, mixed, sliced, dropped) in enumerate(outs):
    report(f"step{step}.out", out)
    report(f"step{step}.sum", s)
    report(f"step{step}.mixed", mixed)
    report(f"step{step}.sliced", sliced)
    printed(f"step{step}.noise", noise)
    printed(f"step{step}.dropped", dropped)
for i, p in enumerate(params):
    report(f"param{i}", p)
