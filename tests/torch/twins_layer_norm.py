"""Layer norm twins (tests/sim/aten/layer_norm.c) against the CPU: forward
(output, mean, rstd) and backward (dX, dgamma, dbeta) of
torch.native_layer_norm with and without affine parameters, rows of 16
(vectorized kernels), 7 and 1030 (moments + forward kernels), 18, 5 and
600 rows, float32, bfloat16 and float16."""
import torch
from twins_check import DTYPES, check, finish, randn, run

dev = "cuda"
CASES = [(18, 16, True), (5, 1030, True), (3, 7, True), (600, 24, True), (4, 16, False), (5, 1030, False)]


def step(x, w, b, g, n):
    x = x.detach().clone().requires_grad_()
    w = w.detach().clone().requires_grad_() if w is not None else None
    b = b.detach().clone().requires_grad_() if b is not None else None
    y, mean, rstd = torch.native_layer_norm(x, (n,), w, b, 1e-5)
    y.backward(g)
    out = [y.detach(), mean.detach(), rstd.detach(), x.grad]
    if w is not None:
        out += [w.grad, b.grad]
    return out


for dtype in DTYPES:
    for rows, n, affine in CASES:
        x = randn(rows, n, dtype=dtype, seed=7) * 2 + 0.5
        g = randn(rows, n, dtype=dtype, seed=8)
        w = randn(n, dtype=dtype, seed=9) if affine else None
        b = randn(n, dtype=dtype, seed=10) if affine else None
        tag = f"layer_norm {rows}x{n} affine={affine} {dtype}"
        f32 = lambda t: t.float() if t is not None else None
        want = step(f32(x), f32(w), f32(b), f32(g), n)
        want = [want[0].to(dtype), want[1], want[2]] + [t.to(dtype) for t in want[3:]]
        dv = lambda t: t.to(dev) if t is not None else None
        got = run(tag, step, dv(x), dv(w), dv(b), dv(g), n)
        if got is None:
            continue
        names = ["y", "mean", "rstd", "dx", "dgamma", "dbeta"]
        for i, (gt, wt) in enumerate(zip(got, want)):
            acc = 8.0 if names[i] in ("y", "mean", "rstd") else float(g.float().abs().sum()) / min(rows, n) * 4
            check(f"{tag} {names[i]}", gt, wt, acc=acc)

finish("twins_layer_norm")
