"""Issue 20: ATen copies that are transposes fold for every dtype and for a
batched transpose (k.transpose(-2, -1).contiguous() feeding a
strided-batched GEMM); copies that are not transposes (a slice, a
broadcast, a permutation a GEMM cannot read) are not producers; a transpose
something else reads (the host) still runs."""
import torch

from tfcheck import dtypes, randn, report

for dt in dtypes():
    W = randn(32, 48, dtype=dt)
    x = randn(5, 48, dtype=dt)
    t = W.t().contiguous()
    report(f"{dt}.out", x @ t)

q = randn(2, 3, 8, 16)
k = randn(2, 3, 8, 16)
kt = k.transpose(-2, -1).contiguous()
report("batched.scores", torch.matmul(q, kt))

W = randn(32, 48)
s = W[:, :16].contiguous()                     # a slice
b = randn(1, 48).expand(32, 48).contiguous()   # a broadcast
p = randn(4, 5, 6).permute(1, 0, 2).contiguous()  # swaps outer dims only
report("slice", s, exact=True)
report("broadcast", b, exact=True)
report("permutation", p, exact=True)

W2 = randn(32, 48)
t2 = W2.t().contiguous()
report("read.t", t2, exact=True)               # the host reads it: it must run
report("read.out", randn(4, 48) @ t2)
