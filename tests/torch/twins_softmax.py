"""softmax / log_softmax twins (tests/sim/aten/softmax.c) against the CPU:
forward and backward over the last dim, rows short (persistent warp
kernels: 1, 9, 33 and 1100 columns) and long (block-per-row kernels: 3000
columns), float32, bfloat16 and float16. Gradients are given explicitly
(random), so backward runs only the softmax kernels (and, for softmax on
long rows, the elementwise product ATen launches before them)."""
import torch
from twins_check import DTYPES, check, finish, randn, run

dev = "cuda"
SHAPES = [(18, 9), (2, 3, 33), (5, 1), (3, 1100), (2, 3000)]


def fwd_bwd(f, x, g):
    x = x.detach().clone().requires_grad_()
    y = f(x)
    y.backward(g)
    return y.detach(), x.grad


for dtype in DTYPES:
    for shape in SHAPES:
        x = randn(*shape, dtype=dtype, seed=5) * 3
        g = randn(*shape, dtype=dtype, seed=6)
        xd, gd = x.to(dev), g.to(dev)
        for name, f in [("softmax", lambda t: torch.softmax(t, -1)), ("log_softmax", lambda t: torch.log_softmax(t, -1))]:
            tag = f"{name} {shape} {dtype}"
            want = fwd_bwd(f, x.float(), g.float())
            want = tuple(w.to(dtype) for w in want)
            got = run(tag, fwd_bwd, f, xd, gd)
            if got is None:
                continue
            gsum = float(g.float().abs().sum(-1).max())
            check(tag + " forward", got[0], want[0], acc=1.0)
            # the backward reads the forward's output rounded to the dtype
            # (and softmax's grad * output): intermediates at the sum's scale
            check(tag + " backward", got[1], want[1], scale=gsum, acc=gsum)

finish("twins_softmax")
