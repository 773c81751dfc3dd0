"""Training steps of a two-layer MLP whose forward reads its weights as
W.t().contiguous() (Linear, GELU, MSE loss, SGD), in float32, bfloat16 and
float16: transposing copies on both sides of the GEMMs (autograd copies the
weight gradients into W.grad's layout)."""
import torch
import torch.nn.functional as F

from tfcheck import dtypes, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    W1 = randn(48, 32, dtype=dt, scale=0.2).requires_grad_()
    b1 = randn(48, dtype=dt, scale=0.1).requires_grad_()
    W2 = randn(16, 48, dtype=dt, scale=0.2).requires_grad_()
    opt = torch.optim.SGD([W1, b1, W2], lr=0.05)
    for step in range(3):
        x = randn(8, 32, dtype=dt)
        y = randn(8, 16, dtype=dt)
        h = F.gelu(torch.matmul(x, W1.t().contiguous()) + b1)
        out = torch.matmul(h, W2.t().contiguous())
        loss = F.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        report(f"{name}.step{step}.loss", loss)
        report(f"{name}.step{step}.W1.grad", W1.grad)
        opt.step()
    report(f"{name}.W1", W1)
    report(f"{name}.W2", W2)
