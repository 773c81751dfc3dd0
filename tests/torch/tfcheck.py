"""Shared by the PyTorch test programs (tests/torch/programs): where they run,
their inputs, and how they report results.

A program runs on TF_TORCH_DEVICE (cuda, the default: the stand-in or a GPU;
or cpu, the reference). Inputs are drawn on the CPU from a fixed seed and
moved to the device, so both runs see the same bytes. report() prints one
line per result (name, dtype, shape, hash of the raw bytes), which the
runner compares bit for bit between transfold's modes, and keeps the tensor;
at exit they are saved to TF_TORCH_OUT (if set), which compare.py reads to
hold the device's results against the CPU's.
"""
import atexit
import hashlib
import os

import torch

DEVICE = torch.device(os.environ.get("TF_TORCH_DEVICE", "cuda"))
ON_CUDA = DEVICE.type == "cuda"
_results = {}
_gen = torch.Generator().manual_seed(1234)


def dtypes():
    """The floating types every program runs in."""
    return [torch.float32, torch.bfloat16, torch.float16]


def randn(*shape, dtype=torch.float32, scale=1.0):
    """Normal values drawn on the CPU in float32, rounded to dtype there,
    then moved: the device sees exactly the CPU's bytes (no device kernel
    converts them)."""
    t = torch.randn(*shape, generator=_gen) * scale
    return t.to(dtype).to(DEVICE)


def randint(high, *shape):
    return torch.randint(high, shape, generator=_gen).to(DEVICE)


def sync():
    if ON_CUDA:
        torch.cuda.synchronize()


def report(name, t, exact=False):
    """exact: a copy or a conversion, equal to the CPU's bit for bit;
    otherwise arithmetic, equal within compare.py's tolerance."""
    sync()
    c = t.detach().cpu().contiguous()
    raw = bytes(c.reshape(-1).view(torch.uint8).tolist()) if c.numel() else b""
    digest = hashlib.sha256(raw).hexdigest()[:16]
    print(f"{name} {str(c.dtype).replace('torch.', '')} {list(c.shape)} {digest}", flush=True)
    _results[name] = (c, exact)


def settle_autograd():
    """Call last in a program whose final statement follows a backward
    pass on the device. The autograd device thread releases a finished
    graph only after backward() has returned; when the interpreter is
    already finalizing, that release (which frees tensors Python had let
    go of and so needs the GIL) aborts the process (see run_one in run.sh).
    The thread takes the next task only once the previous one is released:
    a tiny backward waits for exactly that, and frees nothing of Python's
    itself (its leaf and gradient are returned, for the caller to hold to
    the end)."""
    if not ON_CUDA:
        return None
    leaf = torch.zeros(1, device=DEVICE, requires_grad=True)
    grad = torch.ones((), device=DEVICE)
    leaf.sum().backward(grad)
    sync()
    return leaf, grad


@atexit.register
def _save():
    out = os.environ.get("TF_TORCH_OUT")
    if out:
        torch.save(_results, out)
