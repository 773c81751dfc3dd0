"""TensorInfo-kernel twins (tests/sim/aten/index.c) against the CPU, bit for
bit: tril/triu (k = -1, 0, 2; batched, non-contiguous, in place),
index_select along each dim (few and many indices), nn.Embedding forward
and backward (repeated indices, padding_idx), float32, bfloat16, float16
(and int64 for the copies); gather and scatter_ (copies) and scatter_add_
(float types)."""
import torch
import torch.nn.functional as F
from twins_check import check, finish, randn, run

dev = "cuda"
for dtype in [torch.float32, torch.bfloat16, torch.float16, torch.int64]:
    a = (randn(5, 7, seed=1) * 10).to(dtype)
    b3 = (randn(3, 6, 4, seed=2) * 10).to(dtype)
    ad, b3d = a.to(dev), b3.to(dev)
    cases = [
        ("tril", lambda x, y: torch.tril(x)), ("tril-1", lambda x, y: torch.tril(x, -1)),
        ("triu2", lambda x, y: torch.triu(x, 2)), ("triu_batched", lambda x, y: torch.triu(y, -1)),
        ("tril_t", lambda x, y: torch.tril(x.t())), ("tril_", lambda x, y: x.clone().tril_(1)),
        ("causal", lambda x, y: torch.tril(torch.ones(9, 9, dtype=x.dtype, device=x.device))),
        ("isel0", lambda x, y: torch.index_select(x, 0, torch.tensor([4, 0, 2, 2], device=x.device))),
        ("isel1", lambda x, y: torch.index_select(x, 1, torch.tensor([6, 1], device=x.device))),
        ("isel_3d", lambda x, y: torch.index_select(y, 1, torch.tensor([5, 0, 3], device=x.device))),
        ("isel_many", lambda x, y: torch.index_select(x, 0, (torch.arange(400) % 5).to(x.device))),
        ("gather1", lambda x, y: torch.gather(x, 1, torch.tensor([[6, 0], [1, 1], [2, 0], [3, 3], [4, 5]], device=x.device))),
        ("gather0_3d", lambda x, y: torch.gather(y, 0, torch.tensor([[[2, 0, 1, 1]] * 6], device=x.device))),
        ("scatter1", lambda x, y: x.clone().scatter_(1, torch.tensor([[6, 0], [1, 2], [2, 0], [3, 4], [4, 5]], device=x.device),
                                                     x[:, :2].contiguous() * 0 + x[:, 5:7].contiguous())),
    ]
    for name, f in cases:
        tag = f"{name} {dtype}"
        got = run(tag, f, ad, b3d)
        if got is not None:
            check(tag, got, f(a, b3), exact=True)

for dtype in [torch.float32, torch.bfloat16, torch.float16]:
    base = randn(4, 6, dtype=dtype, seed=5)
    src = randn(4, 3, dtype=dtype, seed=6)
    index = torch.tensor([[0, 5, 5], [1, 1, 1], [2, 3, 4], [0, 0, 2]])
    f = lambda b, i, s: b.clone().scatter_add_(1, i, s)
    tag = f"scatter_add {dtype}"
    got = run(tag, f, base.to(dev), index.to(dev), src.to(dev))
    if got is not None:
        check(tag, got, f(base.float(), index, src.float()).to(dtype), scale=1.0, acc=4.0)

    w = randn(11, 6, dtype=dtype, seed=3)
    idx = torch.tensor([[1, 3, 10, 3], [0, 3, 3, 7]])
    g = randn(2, 4, 6, dtype=dtype, seed=4)

    def emb(w, idx, g, pad):
        w = w.detach().clone().requires_grad_()
        out = F.embedding(idx, w, padding_idx=pad)
        out.backward(g)
        return out.detach(), w.grad

    for pad in [None, 3]:
        tag = f"embedding pad={pad} {dtype}"
        want = emb(w.float(), idx, g.float(), pad)
        want = (want[0].to(dtype), want[1].to(dtype))
        got = run(tag, emb, w.to(dev), idx.to(dev), g.to(dev), pad)
        if got is not None:
            check(tag + " forward", got[0], want[0], exact=True)
            check(tag + " backward", got[1], want[1], acc=4.0)

finish("twins_index")
