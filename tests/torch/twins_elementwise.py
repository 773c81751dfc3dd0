"""The stand-in's twins of ATen's elementwise kernels, checked against the CPU.

Each op runs on the CPU and on the stand-in's device over dtypes and
layouts (contiguous, transposed, sliced, broadcast, batched-transposed,
misaligned, non-contiguous outputs, empty, large enough to cross the
vectorized kernels' tails). Copies, fills, conversions, selections and
comparisons must equal the CPU's bit for bit (NaN's payload aside);
arithmetic must agree within TOLERANCE: ATen's GPU kernels compute half and
bfloat16 in float as the twins do, but the CPU's vectorized math (Sleef,
fused multiply-adds) rounds differently in the last places.

Run on the stand-in:
  LD_LIBRARY_PATH=build/sim \
  LD_PRELOAD=build/sim/libcublas.so.13:build/sim/libcublasLt.so.13 \
  SIMCUDA_KERNELS=build/sim/libsimcuda_aten.so \
  build/torch-venv/bin/python tests/torch/twins_elementwise.py [-v] [filter]
Exits 1 and prints every difference when one case disagrees.
"""
import sys

import torch
import torch.nn.functional as F

FLOATS = [torch.float32, torch.bfloat16, torch.float16]
# (rtol, atol) per dtype: a few units in the last place of each type; atol
# allows for cancellation (1 + erf(x), 1 - tanh(x)^2 of inputs up to ~8),
# where libm's and the CPU's last-place differences grow.
TOLERANCE = {
    torch.float32: (2e-5, 1e-5),
    torch.float64: (1e-12, 1e-14),
    torch.bfloat16: (1.6e-2, 1e-2),
    torch.float16: (2e-3, 1e-3),
}

VERBOSE = "-v" in sys.argv
FILTER = [a for a in sys.argv[1:] if not a.startswith("-")]


def layouts():
    """(name, base shape, view): the view of a contiguous base tensor."""
    return [
        ("contig", (7, 33), lambda b: b),
        ("transposed", (33, 7), lambda b: b.t()),
        ("sliced", (7, 66), lambda b: b[:, ::2]),
        ("batched_transposed", (3, 33, 7), lambda b: b.transpose(1, 2)),
        ("misaligned", (7 * 33 + 1,), lambda b: b[1:].view(7, 33)),
        ("large", (70001 + 5,), lambda b: b),
        ("empty", (0, 33), lambda b: b),
    ]


def make(shape, dtype, kind, gen):
    if kind == "pos":
        x = torch.rand(shape, generator=gen, dtype=torch.float64) + 0.25
    elif kind == "int":
        x = torch.randint(-50, 50, shape, generator=gen, dtype=torch.int64)
    elif kind == "bool":
        x = torch.rand(shape, generator=gen) > 0.5
    else:
        x = torch.randn(shape, generator=gen, dtype=torch.float64) * 2
    return x.to(dtype)


class Case:
    def __init__(self, name, fn, kinds=("normal",), exact=False, dtypes=None):
        self.name, self.fn, self.kinds, self.exact = name, fn, kinds, exact
        self.dtypes = dtypes or FLOATS


def cases():
    c = []
    add = lambda name, fn, **kw: c.append(Case(name, fn, **kw))
    ints = [torch.int64, torch.int32]
    every = FLOATS + [torch.float64] + ints + [torch.int8, torch.uint8, torch.int16]
    # Copies and conversions: bit for bit.
    add("contiguous", lambda x: x.contiguous(), exact=True, dtypes=every + [torch.bool])
    add("transpose_copy", lambda x: x.transpose(0, -1).contiguous(), exact=True, dtypes=every + [torch.bool])
    add("copy_into_strided", lambda x: torch.zeros_like(x.transpose(0, -1)).transpose(0, -1).copy_(x), exact=True,
        dtypes=every)
    for to in [torch.float32, torch.float64, torch.bfloat16, torch.float16, torch.int32, torch.int64, torch.int8,
               torch.uint8, torch.bool]:
        add("to_%s" % str(to).split(".")[1], lambda x, to=to: x.to(to), exact=True,
            dtypes=[d for d in every if d != to])
        add("to_%s_transposed" % str(to).split(".")[1],
            lambda x, to=to: x.transpose(0, -1).to(to, memory_format=torch.contiguous_format), exact=True,
            dtypes=[d for d in FLOATS + ints if d != to])
    add("fill", lambda x: x.clone().fill_(1.5), exact=True, dtypes=FLOATS + [torch.float64])
    add("fill_int", lambda x: x.clone().fill_(7), exact=True, dtypes=ints)
    add("fill_strided", lambda x: x.clone().transpose(0, -1).fill_(-2.25), exact=True)
    add("zero", lambda x: x.clone().zero_(), exact=True, dtypes=every)
    # Selections and comparisons: bit for bit.
    add("neg", lambda x: -x, exact=True, dtypes=FLOATS + [torch.float64] + ints)
    add("abs", lambda x: x.abs(), exact=True, dtypes=FLOATS + ints)
    add("relu", lambda x: x.relu(), exact=True)
    add("threshold_backward", lambda g, x: torch.ops.aten.threshold_backward(g, x, 0.0), kinds=("normal", "normal"),
        exact=True)
    add("where", lambda x, y: torch.where(x > 0, x, y), kinds=("normal", "normal"), exact=True,
        dtypes=FLOATS + ints)
    for name, op in [("gt", torch.gt), ("lt", torch.lt), ("ge", torch.ge), ("le", torch.le), ("eq", torch.eq),
                     ("ne", torch.ne)]:
        add(name, lambda x, y, op=op: op(x, y), kinds=("normal", "normal"), exact=True, dtypes=FLOATS + ints)
        add(name + "_scalar", lambda x, op=op: op(x, 0.5), exact=True)
    add("maximum", torch.maximum, kinds=("normal", "normal"), exact=True, dtypes=FLOATS + ints)
    add("minimum", torch.minimum, kinds=("normal", "normal"), exact=True, dtypes=FLOATS + ints)
    add("clamp", lambda x: x.clamp(-0.5, 0.5), exact=True, dtypes=FLOATS + ints)
    add("clamp_min", lambda x: x.clamp(min=0.25), exact=True)
    add("clamp_max", lambda x: x.clamp(max=0.25), exact=True)
    add("clamp_tensor", lambda x, lo, hi: x.clamp(-lo, hi), kinds=("normal", "pos", "pos"), exact=True)
    # Arithmetic: within TOLERANCE.
    add("add", lambda x, y: x + y, kinds=("normal", "normal"), dtypes=FLOATS + ints + [torch.float64])
    add("add_alpha", lambda x, y: x.add(y, alpha=0.5), kinds=("normal", "normal"))
    add("add_scalar", lambda x: x + 1.25, dtypes=FLOATS + ints)
    add("add_broadcast", lambda x: x + x[..., :1], dtypes=FLOATS + ints)
    add("add_mixed", lambda x: x + x.float(), dtypes=[torch.bfloat16, torch.float16])
    add("add_out_transposed", lambda x, y: torch.add(x, y, out=torch.empty_like(x.transpose(0, -1)).transpose(0, -1)),
        kinds=("normal", "normal"))
    add("add_inplace_strided", lambda x, y: x.clone().transpose(0, -1).add_(y.transpose(0, -1)),
        kinds=("normal", "normal"))
    add("sub", lambda x, y: x - y, kinds=("normal", "normal"), dtypes=FLOATS + ints)
    add("sub_scalar", lambda x: x - 2)
    add("rsub_scalar", lambda x: 2 - x)
    add("mul", lambda x, y: x * y, kinds=("normal", "normal"), dtypes=FLOATS + ints + [torch.float64])
    add("mul_scalar", lambda x: x * 2.5, dtypes=FLOATS + ints)
    add("div", lambda x, y: x / y, kinds=("normal", "pos"))
    add("div_scalar", lambda x: x / 3)
    add("square", lambda x: x.square())
    add("pow2", lambda x: x.pow(2))
    add("pow3", lambda x: x.pow(3))
    add("pow_m2", lambda x: x.pow(-2), kinds=("pos",))
    add("pow_scalar", lambda x: x.pow(2.5), kinds=("pos",))
    add("sqrt", lambda x: x.sqrt(), kinds=("pos",))
    add("rsqrt", lambda x: x.rsqrt(), kinds=("pos",))
    add("reciprocal", lambda x: x.reciprocal(), kinds=("pos",))
    add("exp", lambda x: x.exp())
    add("log", lambda x: x.log(), kinds=("pos",))
    add("tanh", lambda x: x.tanh())
    add("sigmoid", lambda x: x.sigmoid())
    add("silu", lambda x: F.silu(x))
    add("sign", lambda x: x.sign(), exact=True)
    add("gelu", lambda x: F.gelu(x))
    add("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"))
    add("gelu_backward", lambda g, x: torch.ops.aten.gelu_backward(g, x), kinds=("normal", "normal"))
    add("gelu_backward_tanh", lambda g, x: torch.ops.aten.gelu_backward(g, x, approximate="tanh"),
        kinds=("normal", "normal"))
    add("mse_none", lambda x, y: F.mse_loss(x, y, reduction="none"), kinds=("normal", "normal"))
    add("addcmul", lambda x, y, z: x.addcmul(y, z, value=0.3), kinds=("normal", "normal", "normal"))
    add("addcdiv", lambda x, y, z: x.addcdiv(y, z, value=0.3), kinds=("normal", "normal", "pos"))
    add("lerp", lambda x, y: x.lerp(y, 0.3), kinds=("normal", "normal"))
    add("lerp_heavy", lambda x, y: x.lerp(y, 0.7), kinds=("normal", "normal"))
    add("lerp_tensor", lambda x, y, w: x.lerp(y, w - 0.25), kinds=("normal", "normal", "pos"))
    return c


def bits(t):
    """A tensor's bytes as integers, so -0 and NaNs compare by bits."""
    t = t.contiguous()
    if t.dtype == torch.bool:
        return t.to(torch.uint8)
    view = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    return t.view(view)


def compare(case, want, got):
    """None when equal enough, else a line saying how they differ."""
    if want.shape != got.shape or want.dtype != got.dtype:
        return "shape/dtype %s %s vs %s %s" % (tuple(want.shape), want.dtype, tuple(got.shape), got.dtype)
    if want.numel() == 0:
        return None
    if case.exact or not want.is_floating_point():
        if want.is_floating_point():
            nan = torch.isnan(want) & torch.isnan(got)
            same = (bits(want) == bits(got)) | nan.contiguous()
        else:
            same = bits(want) == bits(got)
        if bool(same.all()):
            return None
        i = int((~same).flatten().nonzero()[0])
        return "not bitwise equal at %d of %d: cpu %r stand-in %r (%d differ)" % (
            i, want.numel(), want.flatten()[i].item(), got.flatten()[i].item(), int((~same).sum()))
    rtol, atol = TOLERANCE[want.dtype]
    w, g = want.double(), got.double()
    bad = ~(torch.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True))
    if not bool(bad.any()):
        return None
    i = int(bad.flatten().nonzero()[0])
    return "beyond rtol %g atol %g at %d of %d: cpu %r stand-in %r (%d differ)" % (
        rtol, atol, i, want.numel(), w.flatten()[i].item(), g.flatten()[i].item(), int(bad.sum()))


def run_case(case, dtype, layout, gen):
    lname, shape, view = layout
    bases = [make(shape, dtype, kind, gen) for kind in case.kinds]
    cpu_in = [view(b) for b in bases]
    dev_in = [view(b.cuda()) for b in bases]
    want = case.fn(*cpu_in)
    try:
        got = case.fn(*dev_in)
        torch.cuda.synchronize()
        got = got.cpu()
    except Exception as e:  # a kernel without a twin, or a wrong launch
        return "stand-in failed: %s" % str(e).split("\n")[0]
    return compare(case, want, got)


def main():
    if not torch.cuda.is_available():
        print("twins_elementwise: no CUDA device (run on the stand-in, see the docstring)")
        return 2
    gen = torch.Generator().manual_seed(19)
    failures, ran = [], 0
    for case in cases():
        if FILTER and not any(f in case.name for f in FILTER):
            continue
        for dtype in case.dtypes:
            for layout in layouts():
                if not dtype.is_floating_point and dtype != torch.bool and "pos" in case.kinds:
                    continue
                err = run_case(case, dtype, layout, gen)
                ran += 1
                label = "%s %s %s" % (case.name, str(dtype).split(".")[1], layout[0])
                if err:
                    failures.append("%s: %s" % (label, err))
                    print("FAIL", failures[-1], flush=True)
                elif VERBOSE:
                    print("ok  ", label, flush=True)
    print("twins_elementwise: %d cases, %d failed" % (ran, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
