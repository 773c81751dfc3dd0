"""torch.cat / torch.stack twins (tests/sim/aten/cat.c) against the CPU, bit
for bit: along the outer, middle and inner dims, stack, odd sizes, 1-, 2-,
4- and 8-byte elements (bool, half, bfloat16, float, int64), more inputs
than one batch of 128, slabs of whole 16-byte vectors (the vectorized
kernel), and non-contiguous inputs (the strided kernel)."""
import torch
from twins_check import check, finish, randn, run

dev = "cuda"
for dtype in [torch.float32, torch.bfloat16, torch.float16, torch.int64, torch.bool]:
    def mk(*shape, seed):
        x = randn(*shape, seed=seed) * 10
        return x.to(dtype) if dtype != torch.bool else x > 0
    cases = [
        ("dim0", [mk(5, 7, seed=1), mk(3, 7, seed=2)], lambda ts: torch.cat(ts, 0)),
        ("dim1", [mk(5, 7, seed=1), mk(5, 2, seed=3), mk(5, 1, seed=4)], lambda ts: torch.cat(ts, 1)),
        ("dim2", [mk(2, 3, 5, seed=1), mk(2, 3, 9, seed=5)], lambda ts: torch.cat(ts, 2)),
        ("dim1_3d", [mk(2, 3, 5, seed=1), mk(2, 1, 5, seed=6)], lambda ts: torch.cat(ts, 1)),
        ("stack", [mk(5, 7, seed=1), mk(5, 7, seed=7)], lambda ts: torch.stack(ts)),
        ("stack1", [mk(5, 7, seed=1), mk(5, 7, seed=7)], lambda ts: torch.stack(ts, 1)),
        ("many", [mk(3, 2, seed=10 + i) for i in range(200)], lambda ts: torch.cat(ts, 1)),
        # rows of 16 bytes and more: the vectorized kernel
        ("vec_dim1", [mk(3, 8, seed=1), mk(3, 16, seed=8)], lambda ts: torch.cat(ts, 1)),
        ("vec_dim0", [mk(3, 8, seed=1), mk(5, 8, seed=9)], lambda ts: torch.cat(ts, 0)),
        ("vec_3d", [mk(2, 3, 8, seed=1), mk(2, 5, 8, seed=11)], lambda ts: torch.cat(ts, 1)),
    ]
    # non-contiguous inputs (the strided kernel), made on the device the
    # same way as on the CPU
    strided = [
        ("t_dim0", lambda d: [mk(7, 5, seed=1).to(d).t(), mk(7, 3, seed=2).to(d).t()], lambda ts: torch.cat(ts, 0)),
        ("t_dim1", lambda d: [mk(7, 5, seed=1).to(d).t(), mk(5, 6, seed=3).to(d)[:, ::2]], lambda ts: torch.cat(ts, 1)),
        ("slice_3d", lambda d: [mk(2, 3, 10, seed=1).to(d)[:, :, ::2], mk(2, 3, 4, seed=4).to(d).transpose(0, 1).contiguous().transpose(0, 1)],
         lambda ts: torch.cat(ts, 2)),
        ("mixed", lambda d: [mk(3, 6, seed=1).to(d), mk(6, 3, seed=5).to(d).t()], lambda ts: torch.cat(ts, 0)),
    ]
    for name, make, f in strided:
        tag = f"cat {name} {dtype}"
        got = run(tag, lambda: f(make(dev)))
        if got is not None:
            check(tag, got, f(make("cpu")), exact=True)
    for name, ts, f in cases:
        tag = f"cat {name} {dtype}"
        got = run(tag, f, [t.to(dev) for t in ts])
        if got is not None:
            check(tag, got, f(ts), exact=True)

finish("twins_cat")
