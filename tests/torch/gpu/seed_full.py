"""The seed's program at its full shapes in eager PyTorch, timed, for
scripts/gpu-check.sh: x bf16 [384, 2, 13824], W bf16 [5120, 13824], each
step `t = W.t().contiguous(); out = torch.matmul(x, t)`.

  seed_full.py run [--steps N] [--warmup N] [--div D] [--out FILE]
      WARMUP steps, then STEPS steps each timed with a pair of CUDA events
      around the whole step (the copy and the GEMM). Prints the median and
      min-max ms per timed step, how many transposing copies the program
      issued (one a step; transfold's log says how many of them ran), and
      saves the last step's output to FILE. --div divides every dimension
      (a rehearsal on the CPU stand-in, where full shapes take minutes).
  seed_full.py compare WITHOUT.pt WITH.pt
      Holds WITH's output against WITHOUT's: |with - without| <= atol +
      rtol * |without| elementwise, rtol = 2^-6, atol = 2^-6 * sqrt(K).
      Why: a folded GEMM reads W with op T where the unfolded one read t
      with op N; real cuBLAS may pick another kernel, tile or split-k for
      it, so the fp32 sums over K come in another order. Each output is one
      bf16 rounding (2^-8 relative) of a sum of K terms of about unit size
      (|sum| about sqrt(K)): two orders differ by an ulp or two of bf16
      (2^-7 relative each), and near zero by a few fp32 roundings of terms
      that large, which 2^-6 * sqrt(K) bounds with room to spare. Exits 1
      beyond it; prints the bound, the elements beyond it and the largest
      error either way.
"""
import argparse
import math
import statistics
import sys

import torch

SHAPE_X = (384, 2, 13824)
SHAPE_W = (5120, 13824)
RTOL = 2.0 ** -6


def inputs(div):
    """Normal values drawn on the CPU from a fixed seed, rounded to bf16
    there and moved, so every run (with and without transfold) computes on
    the same bytes."""
    g = torch.Generator().manual_seed(20)
    sx = tuple(max(1, d // div) if i != 1 else d for i, d in enumerate(SHAPE_X))
    sw = tuple(max(1, d // div) for d in SHAPE_W)
    x = torch.randn(*sx, generator=g).to(torch.bfloat16).to("cuda")
    w = torch.randn(*sw, generator=g).to(torch.bfloat16).to("cuda")
    return x, w


def run(args):
    x, w = inputs(args.div)
    total = args.warmup + args.steps
    events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(total)]
    out = None
    for start, end in events:
        start.record()
        t = w.t().contiguous()
        out = torch.matmul(x, t)
        end.record()
    torch.cuda.synchronize()
    ms = [s.elapsed_time(e) for s, e in events[args.warmup:]]
    med = statistics.median(ms)
    print(f"seed_full: x {list(x.shape)} W {list(w.shape)} bf16, {args.warmup} warmup + {args.steps} timed steps")
    print(f"seed_full: median {med:.3f} ms/step (min {min(ms):.3f}, max {max(ms):.3f})")
    print(f"seed_full: transposing copies issued {total}")
    # `transfold ab` reads lines of this form as metrics.
    print(f"transfold-ab: seed_full_step {med:.4f}")
    if args.out:
        torch.save(out.cpu(), args.out)


def compare(args):
    a = torch.load(args.without).double()
    b = torch.load(args.with_).double()
    if a.shape != b.shape:
        print(f"seed_full compare: shapes differ: without {list(a.shape)}, with {list(b.shape)}")
        sys.exit(1)
    k = SHAPE_X[2] if args.k is None else args.k
    atol = RTOL * math.sqrt(k)
    err = (a - b).abs()
    beyond = int((err > atol + RTOL * a.abs()).sum())
    nan = int(torch.isnan(a).ne(torch.isnan(b)).sum())
    equal = bool(torch.equal(a, b))
    print(f"seed_full compare: tolerance rtol 2^-6 = {RTOL:.6g}, atol 2^-6*sqrt(K) = {atol:.4g} (K {k}); "
          f"{'bitwise equal' if equal else 'not bitwise equal'}; {beyond + nan} of {a.numel()} elements beyond; "
          f"max |err| {float(err.max()):.4g}")
    sys.exit(1 if beyond or nan else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--steps", type=int, default=20)
    r.add_argument("--warmup", type=int, default=5)
    r.add_argument("--div", type=int, default=1)
    r.add_argument("--out")
    c = sub.add_parser("compare")
    c.add_argument("without")
    c.add_argument("with_", metavar="with")
    c.add_argument("--k", type=int, help="the GEMM's K (default the full shapes' 13824)")
    args = p.parse_args()
    run(args) if args.cmd == "run" else compare(args)


if __name__ == "__main__":
    main()
