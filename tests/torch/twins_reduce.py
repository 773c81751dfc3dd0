"""reduce_kernel twins (tests/sim/aten/reduce.c) against the CPU: sum, mean,
amax/amin, max/min with indices, argmax/argmin, 2-norm, var/std over
float32, bfloat16 and float16; inner, outer, middle and all dims, keepdim,
odd sizes, non-contiguous (transposed and sliced) inputs."""
import torch
from twins_check import DTYPES, check, finish, randn, run

dev = "cuda"


def inputs(dtype):
    a = randn(5, 7, 9, dtype=dtype, seed=1)
    yield "contig", a
    yield "transposed", randn(9, 7, 5, dtype=dtype, seed=2).transpose(0, 2)
    yield "sliced", randn(10, 7, 19, dtype=dtype, seed=3)[::2, :, 1:10]
    yield "big", randn(3, 1031, dtype=dtype, seed=4).reshape(3, 1031, 1).expand(3, 1031, 2)


OPS = [
    ("sum_all", lambda x: x.sum(), "sum"),
    ("sum0", lambda x: x.sum(0), "sum"),
    ("sum1", lambda x: x.sum(1), "sum"),
    ("sum2k", lambda x: x.sum(2, keepdim=True), "sum"),
    ("sum02", lambda x: x.sum((0, 2)), "sum"),
    ("mean_all", lambda x: x.mean(), "mean"),
    ("mean1k", lambda x: x.mean(1, keepdim=True), "mean"),
    ("mean2", lambda x: x.mean(2), "mean"),
    ("amax0", lambda x: x.amax(0), "exact"),
    ("amin2", lambda x: x.amin(2), "exact"),
    ("max_all", lambda x: x.max(), "exact"),
    ("min_all", lambda x: x.min(), "exact"),
    ("max1", lambda x: tuple(x.max(1)), "exact"),
    ("min2k", lambda x: tuple(x.min(2, keepdim=True)), "exact"),
    ("argmax2", lambda x: x.argmax(2), "exact"),
    ("argmin0", lambda x: x.argmin(0), "exact"),
    ("argmax_all", lambda x: x.argmax(), "exact"),
    ("norm", lambda x: x.norm(), "norm"),
    ("norm1", lambda x: x.norm(dim=1), "norm"),
    ("var1", lambda x: x.var(1), "var"),
    ("std2", lambda x: x.std(2, correction=0), "var"),
    ("var_mean0", lambda x: tuple(torch.var_mean(x, 0)), "var"),
]

for dtype in DTYPES:
    for iname, x in inputs(dtype):
        xd = x.to(dev) if iname not in ("transposed", "sliced", "big") else None
        if xd is None:  # keep the same strides on the device
            base = x
            if iname == "transposed":
                xd = randn(9, 7, 5, dtype=dtype, seed=2).to(dev).transpose(0, 2)
            elif iname == "sliced":
                xd = randn(10, 7, 19, dtype=dtype, seed=3).to(dev)[::2, :, 1:10]
            else:
                xd = randn(3, 1031, dtype=dtype, seed=4).to(dev).reshape(3, 1031, 1).expand(3, 1031, 2)
        n = x.numel()
        for name, f, kind in OPS:
            want = f(x.float()) if kind in ("sum", "mean", "norm", "var") else f(x)
            if kind in ("sum", "mean", "norm", "var"):
                want = tuple(w.to(dtype) for w in want) if isinstance(want, tuple) else want.to(dtype)
            got = run(f"{name} {iname} {dtype}", f, xd)
            if got is None:
                continue
            scale = {"sum": float(x.float().abs().max()) * n ** 0.5 + 1, "mean": 2.0, "norm": 2.0, "var": 4.0}.get(kind, 1.0)
            check(f"{name} {iname} {dtype}", got, want, scale=scale, exact=(kind == "exact"))

finish("twins_reduce")
