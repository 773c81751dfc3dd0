"""The GEMM paths PyTorch takes, on inputs uploaded from the host (no ATen
kernel runs): torch.matmul (cublasGemmEx / typed gemms), batched matmul
(strided-batched), and F.linear with a bias (cuBLASLt with a bias epilogue,
called with PyTorch's cuBLAS handle as its cuBLASLt handle), in float32,
bfloat16 and float16."""
import torch
import torch.nn.functional as F

from tfcheck import dtypes, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    x = randn(8, 32, dtype=dt)
    W = randn(24, 32, dtype=dt)
    b = randn(24, dtype=dt)
    report(f"{name}.matmul", torch.matmul(x, W.t()))
    report(f"{name}.linear_bias", F.linear(x, W, b))
    q = randn(3, 16, 8, dtype=dt)
    k = randn(3, 16, 8, dtype=dt)
    report(f"{name}.bmm", torch.bmm(q, k.transpose(1, 2)))
