"""Shared by the tests/torch/twins_*.py scripts: run an op on the CPU and on
the stand-in's CUDA device, compare within a stated tolerance, report every
mismatch and exit non-zero at the end when any.

Tolerance: arithmetic is compared with |got - want| <= atol + rtol * |want|,
where rtol is a few units in the last place of the dtype (the stand-in
folds in ATen's accumulate type, but in another order than the CPU's
kernels and the GPU's threads) and atol scales with the magnitude of what
was summed (passed by each check). Integers (indices) and copies must be
equal bit for bit. NaN must meet NaN, infinities their own sign."""
import sys
import torch

DTYPES = [torch.float32, torch.bfloat16, torch.float16]
# Units in the last place: float32 2^-23, bfloat16 2^-7, float16 2^-10.
EPS = {torch.float32: 2.0**-23, torch.bfloat16: 2.0**-7, torch.float16: 2.0**-10, torch.float64: 2.0**-52}
ULPS = 8

failures = []
checks = 0


def tol(dtype, scale=1.0):
    e = EPS.get(dtype, 0.0)
    return ULPS * e * scale, ULPS * e


def check(name, got, want, scale=1.0, exact=False):
    """got from the device, want from the CPU (tensors or tuples of them)."""
    global checks
    if isinstance(want, (tuple, list)):
        for i, (g, w) in enumerate(zip(got, want)):
            check(f"{name}[{i}]", g, w, scale, exact)
        return
    checks += 1
    g = got.detach().cpu()
    w = want.detach().cpu()
    if g.shape != w.shape or g.dtype != w.dtype:
        failures.append(f"{name}: shape/dtype {tuple(g.shape)} {g.dtype} != {tuple(w.shape)} {w.dtype}")
        return
    if exact or not g.dtype.is_floating_point:
        if not torch.equal(g.view(-1).view(torch.uint8) if g.dtype.is_floating_point else g, w.view(-1).view(torch.uint8) if w.dtype.is_floating_point else w):
            bad = (g != w).nonzero()[:5].tolist()
            failures.append(f"{name}: not bit-equal at {bad}: got {g.flatten()[:8].tolist()} want {w.flatten()[:8].tolist()}")
        return
    atol, rtol = tol(g.dtype, scale)
    gd, wd = g.double(), w.double()
    nan_ok = torch.isnan(gd) == torch.isnan(wd)
    inf_ok = torch.where(torch.isinf(wd), gd == wd, torch.ones_like(nan_ok))
    diff = (gd - wd).abs()
    close = (diff <= atol + rtol * wd.abs()) | (torch.isnan(gd) & torch.isnan(wd)) | (torch.isinf(wd) & (gd == wd))
    ok = nan_ok & inf_ok & close
    if not bool(ok.all()):
        idx = (~ok).nonzero()[:5].tolist()
        worst = float(torch.where(ok, torch.zeros_like(diff), torch.nan_to_num(diff, nan=float("inf"))).max())
        flat = [tuple(i) for i in idx]
        failures.append(f"{name}: {int((~ok).sum())} of {ok.numel()} differ beyond atol {atol:.3g} rtol {rtol:.3g} "
                        f"(worst {worst:.3g}) at {flat}: got {[float(gd[i]) for i in flat]} want {[float(wd[i]) for i in flat]}")


def run(name, f, *args):
    """f(*args) on the device; an error (a kernel without a twin) is a
    failure, reported, and the script goes on with the next check."""
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001 - any failure is reported
        failures.append(f"{name}: raised {type(e).__name__}: {str(e).splitlines()[0]}")
        return None


def randn(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g).to(dtype)


def finish(what):
    if failures:
        for f in failures:
            print("MISMATCH", f)
        print(f"{what}: {len(failures)} of {checks} checks differ")
        sys.exit(1)
    print(f"{what}: all {checks} checks within tolerance")
