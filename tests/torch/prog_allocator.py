"""The caching allocator hands a freed transpose's bytes to the next tensor
of a fitting size; empty_cache() returns whole segments to the driver. Every
result must survive both, whatever transfold deferred in those bytes."""
import torch

from tfcheck import ON_CUDA, randn, report

W = randn(32, 64, dtype=torch.bfloat16)
for step in range(4):
    x = randn(4, 64, dtype=torch.bfloat16)
    t = W.t().contiguous()
    out = torch.matmul(x, t)
    del t                                          # its bytes go back to the cache...
    fresh = torch.full((64, 32), float(step), dtype=torch.bfloat16, device=W.device)  # ...and come back here
    report(f"step{step}.out", out)
    report(f"step{step}.fresh", fresh, exact=True)
    report(f"step{step}.gemm", torch.matmul(x, W.t().contiguous()))  # bytes of the freed t, perhaps
    if step % 2 and ON_CUDA:
        del fresh
        torch.cuda.empty_cache()                   # whole segments freed
