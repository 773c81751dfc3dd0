"""torch.arange on the device (tests/sim/aten/range.c) against the CPU:
integer types bit for bit, floating types within 2 ulps of the dtype
(start + step * i is one fused multiply-add in float on the GPU)."""
import torch
from twins_check import check, finish, run

dev = "cuda"
CASES = [(0, 10, 1), (3, 30, 2), (-5, 7, 3), (0.5, 3, 0.25), (2.0, -1.0, -0.3), (0, 1000, 1)]
for dtype in [torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8, torch.float32, torch.float64,
              torch.bfloat16, torch.float16]:
    for start, end, step in CASES:
        if not dtype.is_floating_point and any(isinstance(v, float) for v in (start, end, step)):
            continue
        if dtype in (torch.uint8, torch.int8) and (end > 127 or start < 0 or end < 0):
            continue
        if dtype in (torch.bfloat16, torch.float16) and end > 200:
            continue
        tag = f"arange({start}, {end}, {step}) {dtype}"
        f = lambda d: torch.arange(start, end, step, dtype=dtype, device=d)
        got = run(tag, f, dev)
        if got is not None:
            check(tag, got, f("cpu"), exact=not dtype.is_floating_point, acc=abs(end))

finish("twins_range")
