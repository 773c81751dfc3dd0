"""PyTorch's streams and events: work on a side stream ordered by
wait_stream / events, a tensor used across streams and kept alive with
record_stream, a transpose made on one stream and read by a GEMM on another.
Under SIMCUDA_ASYNC=1 the stand-in runs each stream on its own thread, and
SIMCUDA_RACE=abort stops at any access the ordering does not cover."""
import torch

from tfcheck import ON_CUDA, randn, report

W = randn(32, 48, dtype=torch.bfloat16)
x = randn(6, 32, dtype=torch.bfloat16)
if ON_CUDA:
    main = torch.cuda.current_stream()
    side = torch.cuda.Stream()
    done = torch.cuda.Event()
    for step in range(3):
        side.wait_stream(main)
        with torch.cuda.stream(side):
            y = torch.matmul(x, W)          # on the side stream
            t = W.t().contiguous()          # a transpose made there
            done.record(side)
        main.wait_event(done)
        y.record_stream(main)               # y is used on main too
        t.record_stream(main)
        z = torch.empty_like(y)
        z.copy_(y)                          # device-to-device copy on main
        out = torch.matmul(randn(4, 48, dtype=torch.bfloat16), t)  # reads t on main
        del y, t                            # freed while main may still read them
        report(f"step{step}.z", z, exact=True)
        report(f"step{step}.out", out)
else:
    for step in range(3):
        z = torch.matmul(x, W)
        out = torch.matmul(randn(4, 48, dtype=torch.bfloat16), W.t().contiguous())
        report(f"step{step}.z", z, exact=True)
        report(f"step{step}.out", out)
