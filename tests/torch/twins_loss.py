"""Loss twins against the CPU: cross_entropy (log_softmax + nll_loss, mean
and sum, class weights, ignore_index hit), nll_loss alone, mse_loss (mean
and sum: elementwise + reduce) -- forward and gradient, float32, bfloat16
and float16. Kernels: tests/sim/aten/nll_loss.c, softmax.c, reduce.c
(and twins-a's elementwise ones)."""
import torch
import torch.nn.functional as F
from twins_check import DTYPES, check, finish, randn, run

dev = "cuda"


def fwd_bwd(f, x, *rest):
    x = x.detach().clone().requires_grad_()
    loss = f(x, *rest)
    loss.backward()
    return loss.detach(), x.grad


tgt = torch.tensor([1, 0, 10, 3, 3, 7, 2])
tgt_ign = torch.tensor([1, -100, 10, 3, -100, 7, 2])
for dtype in DTYPES:
    x = randn(7, 11, dtype=dtype, seed=11) * 2
    w = (randn(11, dtype=dtype, seed=12).abs() + 0.5).to(dtype)
    y = randn(7, 11, dtype=dtype, seed=13)
    cases = [
        ("ce_mean", lambda a, t, wt, yy: F.cross_entropy(a, t), tgt),
        ("ce_sum", lambda a, t, wt, yy: F.cross_entropy(a, t, reduction="sum"), tgt),
        ("ce_weight", lambda a, t, wt, yy: F.cross_entropy(a, t, weight=wt), tgt),
        ("ce_ignore", lambda a, t, wt, yy: F.cross_entropy(a, t), tgt_ign),
        ("nll_mean", lambda a, t, wt, yy: F.nll_loss(a, t), tgt),
        ("nll_weight_sum", lambda a, t, wt, yy: F.nll_loss(a, t, weight=wt, reduction="sum"), tgt_ign),
        ("mse_mean", lambda a, t, wt, yy: F.mse_loss(a, yy), tgt),
        ("mse_sum", lambda a, t, wt, yy: F.mse_loss(a, yy, reduction="sum"), tgt),
    ]
    for name, f, t in cases:
        tag = f"{name} {dtype}"
        want = fwd_bwd(f, x.float(), t, w.float(), y.float())
        want = tuple(v.to(dtype) for v in want)
        got = run(tag, fwd_bwd, f, x.to(dev), t.to(dev), w.to(dev), y.to(dev))
        if got is None:
            continue
        check(tag + " loss", got[0], want[0], acc=float(x.float().abs().sum()))
        # nll's backward divides and multiplies in the dtype
        check(tag + " grad", got[1], want[1], scale=1.0, acc=1.0)

finish("twins_loss")
