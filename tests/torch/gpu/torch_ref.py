"""Ground truth from real PyTorch on a GPU (run by hand on a GPU machine):
prints, as hex, what torch.rand/randn/randint/bernoulli_/dropout give for
fixed seeds and shapes, to compare with the stand-in's twins."""
import struct
import torch

def hexes(t):
    t = t.detach().cpu().contiguous()
    if t.dtype in (torch.float16, torch.bfloat16):
        return t.view(torch.int16).flatten().tolist()
    if t.dtype == torch.float32:
        return t.view(torch.int32).flatten().tolist()
    if t.dtype == torch.float64:
        return t.view(torch.int64).flatten().tolist()
    return t.flatten().tolist()

CASES = {
    "rand5": lambda: torch.rand(5, device="cuda"),
    "rand1000": lambda: torch.rand(1000, device="cuda"),
    "rand300k": lambda: torch.rand(300000, device="cuda"),
    "randn7": lambda: torch.randn(7, device="cuda"),
    "randn_half9": lambda: torch.randn(9, device="cuda", dtype=torch.half),
    "rand_dbl6": lambda: torch.rand(6, device="cuda", dtype=torch.double),
    "randn_dbl6": lambda: torch.randn(6, device="cuda", dtype=torch.double),
    "uniform_bf16": lambda: torch.empty(11, device="cuda", dtype=torch.bfloat16).uniform_(-1, 3),
    "randint": lambda: torch.randint(3, 1000, (13,), device="cuda"),
    "randint_big": lambda: torch.randint(-2**40, 2**40, (5,), device="cuda"),
    "bern": lambda: torch.empty(17, device="cuda").bernoulli_(0.3),
    "strided": lambda: torch.zeros(4, 6, device="cuda")[:, ::2].uniform_(1, 2),
    "dropout": lambda: torch.nn.functional.dropout(torch.arange(1., 20., device="cuda"), 0.4, True),
    "dropout_half": lambda: torch.nn.functional.dropout(torch.arange(1., 20., device="cuda").half(), 0.25, True),
}
print("props", torch.cuda.get_device_properties(0).multi_processor_count,
      torch.cuda.get_device_properties(0).max_threads_per_multi_processor, torch.__version__)
for name, f in CASES.items():
    torch.manual_seed(0)
    try:
        print(name, hexes(f()))
    except Exception as e:  # noqa: BLE001
        print(name, "ERR", e)
