"""Issue 20 at the sizes real models have: from 256 KiB (1- and 2-byte
types) or 4 MiB, PyTorch 2.15 transposes with its tiled kernel
(transpose_copy_tiled_kernel, Copy.cu), not the TensorIterator copy the
small programs meet. The seed's loop in bf16, f16 and f32 at such sizes
(the copies fold), a weight-gradient step whose AccumulateGrad copy is
tiled (an output fold), and transposes a GEMM does not read (uint8,
float64 read back by the host: they run)."""
import torch

from tfcheck import randn, report

for dt, rows, cols in [(torch.bfloat16, 512, 256), (torch.float16, 264, 520), (torch.float32, 1024, 1024)]:
    name = str(dt).replace("torch.", "")
    W = randn(rows, cols, dtype=dt, scale=0.1)
    for step in range(3):
        x = randn(4, cols, dtype=dt)
        t = W.t().contiguous()
        report(f"{name}.step{step}.out", torch.matmul(x, t))

W1 = randn(512, 256, dtype=torch.bfloat16, scale=0.1).requires_grad_()
for step in range(2):
    x = randn(4, 256, dtype=torch.bfloat16)
    out = torch.matmul(x, W1.t().contiguous())
    out.backward(randn(4, 512, dtype=torch.bfloat16))
    report(f"grad.step{step}.W1.grad", W1.grad)
    W1.grad = None

B = (randn(1024, 512) * 40).to(torch.uint8)
report("u8.t", B.t().contiguous(), exact=True)
D = randn(1024, 520, dtype=torch.float64)
report("f64.t", D.t().contiguous(), exact=True)
