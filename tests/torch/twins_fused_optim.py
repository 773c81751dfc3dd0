"""Fused optimizers (fused=True; tests/sim/aten/fused_adam.c, fused_sgd.c)
against the CPU's fused implementation in the same dtype: two steps of
Adam, AdamW and SGD (plain, momentum with dampening and weight decay,
nesterov with maximize) over tensors of odd sizes and one of more than a
65536-element chunk, float32, bfloat16, float16."""
import torch
from twins_check import DTYPES, check, finish, randn, run

SHAPES = [(7, 12), (33,), (70001,)]


def steps(dev, dtype, cls, **kw):
    ps = [torch.nn.Parameter(randn(*s, dtype=dtype, seed=50 + i).to(dev)) for i, s in enumerate(SHAPES)]
    opt = cls(ps, fused=True, **kw)
    for k in range(2):
        for i, p in enumerate(ps):
            p.grad = randn(*p.shape, dtype=dtype, seed=60 + 10 * k + i).to(dev)
        opt.step()
    out = [p.detach() for p in ps]
    for p in ps:
        st = opt.state[p]
        out += [st[k] for k in ("exp_avg", "exp_avg_sq", "momentum_buffer") if st.get(k) is not None]
    return out


CONFIGS = [
    ("adamw", torch.optim.AdamW, dict(lr=1e-2, betas=(0.8, 0.95), eps=1e-7, weight_decay=0.05)),
    ("adam", torch.optim.Adam, dict(lr=1e-3, weight_decay=0.1)),
    ("adamw_max", torch.optim.AdamW, dict(lr=1e-2, maximize=True)),
    ("sgd", torch.optim.SGD, dict(lr=1e-2)),
    ("sgd_momentum", torch.optim.SGD, dict(lr=1e-2, momentum=0.9, dampening=0.1, weight_decay=0.05)),
    ("sgd_nesterov", torch.optim.SGD, dict(lr=1e-2, momentum=0.9, nesterov=True, maximize=True)),
]
for dtype in DTYPES:
    for name, cls, kw in CONFIGS:
        tag = f"fused {name} {dtype}"
        want = steps("cpu", dtype, cls, **kw)
        got = run(tag, lambda: steps("cuda", dtype, cls, **kw))
        if got is None:
            continue
        # One rounding to the dtype a step and element; the CPU's fused kernel
        # may evaluate the double/float mix in another order.
        for i, (g, w) in enumerate(zip(got, want)):
            check(f"{tag} out{i}", g, w, scale=2.0, acc=4.0)

finish("twins_fused_optim")
