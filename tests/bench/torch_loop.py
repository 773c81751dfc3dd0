"""make bench's PyTorch rows (run.sh), run under callgrind with
--dump-before=getppid: each os.getppid() closes one dump, so the dumps are
  1. start-up (import torch, tensors) and one warm-up round of each loop,
  2. N rounds of an ATen launch decoded but no transpose (torch.add, out=),
  3. N rounds of tests/torch's eager loop (t = W.t().contiguous();
     out = torch.matmul(x, t)): the transposing copy folded into the GEMM,
  4. the rest (exit).
usage: torch_loop.py N"""
import os
import sys

import torch

n = int(sys.argv[1])
dev = "cuda"
W = torch.randn(64, 96, device=dev, dtype=torch.bfloat16)
x = torch.randn(12, 96, device=dev, dtype=torch.bfloat16)
a = torch.randn(64, 96, device=dev)
b = torch.randn(64, 96, device=dev)
c = torch.empty(64, 96, device=dev)


def add():
    torch.add(a, b, out=c)


def eager():
    t = W.t().contiguous()
    return torch.matmul(x, t)


add()
eager()
torch.cuda.synchronize()
os.getppid()
for _ in range(n):
    add()
torch.cuda.synchronize()
os.getppid()
for _ in range(n):
    eager()
torch.cuda.synchronize()
os.getppid()
sys.stdout.flush()
os._exit(0)
