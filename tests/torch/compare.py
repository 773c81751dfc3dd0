"""Holds a device run's results against the CPU's (both saved by tfcheck.py).

Copies, fills and conversions (reported exact) must be equal bit for bit.
Arithmetic must agree within a tolerance per dtype, elementwise
|dev - cpu| <= atol + rtol * |cpu|, NaN where the CPU has NaN:
  float32   rtol 1e-4, atol 1e-5   (summation order differs)
  bfloat16  rtol 2e-2, atol 2e-2   (8 bits of mantissa; one rounding apart, twice)
  float16   rtol 4e-3, atol 4e-3   (11 bits)
  float64   rtol 1e-10, atol 1e-12
Integer and bool results are compared exactly.
usage: compare.py [--ref NAME] CPU.pt DEVICE.pt; exits 1 and names each
difference. --ref names the reference in what is printed (default "CPU"):
on a GPU, tests/torch/run.sh holds a transfold run's results against
--without's with the same tolerances.
"""
import sys

import torch

TOL = {
    torch.float32: (1e-4, 1e-5),
    torch.bfloat16: (2e-2, 2e-2),
    torch.float16: (4e-3, 4e-3),
    torch.float64: (1e-10, 1e-12),
}


def bits_equal(a, b):
    return torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8))


def close(name, cpu, dev):
    if cpu.dtype not in TOL:
        return bits_equal(cpu, dev), "integer values differ"
    rtol, atol = TOL[cpu.dtype]
    c, d = cpu.double(), dev.double()
    nan_ok = torch.equal(torch.isnan(c), torch.isnan(d))
    fin = ~torch.isnan(c)
    err = (c[fin] - d[fin]).abs()
    bound = atol + rtol * c[fin].abs()
    bad = int((err > bound).sum()) if err.numel() else 0
    worst = float(err.max()) if err.numel() else 0.0
    return nan_ok and bad == 0, f"{bad} of {c.numel()} elements beyond rtol {rtol} atol {atol} (max |err| {worst:.3g})"


def main():
    args = sys.argv[1:]
    ref = "CPU"
    if args[:1] == ["--ref"]:
        ref, args = args[1], args[2:]
    cpu, dev = torch.load(args[0]), torch.load(args[1])
    failed = 0
    if sorted(cpu) != sorted(dev):
        print(f"results differ: {ref} {sorted(cpu)} device {sorted(dev)}")
        failed += 1
    for name in sorted(set(cpu) & set(dev)):
        (c, exact), (d, _) = cpu[name], dev[name]
        if c.dtype != d.dtype or c.shape != d.shape:
            ok, why = False, f"{ref} {c.dtype} {list(c.shape)}, device {d.dtype} {list(d.shape)}"
        elif exact:
            ok, why = bits_equal(c, d), f"bytes differ from the {ref}'s (a copy must be exact)"
        else:
            ok, why = close(name, c, d)
        if not ok:
            print(f"{name}: {why}")
            failed += 1
    print(f"compare: {len(cpu)} results, {failed} differ from the {ref}'s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
