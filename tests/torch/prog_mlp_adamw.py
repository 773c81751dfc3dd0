"""A classifier's training steps with nn.Linear layers (cuBLAS and cuBLASLt
with bias epilogues), GELU, cross-entropy, and AdamW both foreach
(multi_tensor_apply) and single-tensor, in float32, bfloat16 and float16."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from tfcheck import dtypes, randint, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    for foreach in (True, False):
        tag = f"{name}.{'foreach' if foreach else 'single'}"
        model = nn.Sequential(nn.Linear(32, 48), nn.GELU(), nn.Linear(48, 10))
        with torch.no_grad():  # weights drawn on the CPU, same bytes on every device
            for p in model.parameters():
                p.copy_(randn(*p.shape, scale=0.2).cpu())
        model = model.to(device=randn(1).device, dtype=dt)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.01, foreach=foreach)
        for step in range(3):
            x = randn(8, 32, dtype=dt)
            target = randint(10, 8)
            loss = F.cross_entropy(model(x), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            report(f"{tag}.step{step}.loss", loss)
        for i, p in enumerate(model.parameters()):
            report(f"{tag}.param{i}", p)
