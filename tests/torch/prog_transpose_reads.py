"""Transposes that something other than a GEMM needs: t = W.t().contiguous()
read by a kernel (an elementwise op, a reduction), copied to the host,
copied device to device, and overwritten in part; a GEMM reads it too."""
import torch

from tfcheck import randn, report

for dt in (torch.float32, torch.bfloat16):
    name = str(dt).replace("torch.", "")
    W = randn(40, 24, dtype=dt)
    x = randn(5, 40, dtype=dt)
    t = W.t().contiguous()
    y = torch.matmul(x, W)  # reads W, not t
    report(f"{name}.y", y)
    report(f"{name}.t_host", t.cpu(), exact=True)   # host copy of the transpose
    t2 = W.t().contiguous()
    report(f"{name}.t2_scaled", t2 * 2, exact=True)  # a kernel reads it (exact: *2)
    report(f"{name}.t2_sum", t2.float().sum(dim=0))
    t3 = W.t().contiguous()
    c = torch.empty_like(t3)
    c.copy_(t3)                                      # device-to-device copy
    report(f"{name}.t3_copy", c, exact=True)
    t4 = W.t().contiguous()
    t4[0].fill_(1.5)                                 # part of it overwritten, then read
    report(f"{name}.t4_gemm", torch.matmul(randn(3, 24, dtype=dt), t4))
    report(f"{name}.t4", t4, exact=True)
