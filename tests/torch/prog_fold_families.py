"""Issue 20: ATen launch families decoded into exact byte ranges, each run
between a transposing copy (t = W.t().contiguous()) and the GEMM reading
it, in float32, bfloat16 and float16: reductions (mean, mean over a kept
dim, amax, max and argmax over a dim, 2-norm, var_mean, a sum over the
slow dim whose output is vectorized), elementwise kernels whose functor is
a struct in the non-casting strided closure (abs, a tensor-tensor add, a
comparison) or a struct wrapping a lambda (threshold), foreach updates
with a list of scalars (_foreach_div_, _foreach_addcdiv_), and kernels
taking plain pointers: softmax and log_softmax forward and backward
(softmax_warp_*), nll_loss forward and backward (cross_entropy), layer norm
(vectorized_layer_norm_kernel). None of them is
unknown work: every transpose folds and none is materialized because of
them (tests/torch/expected-events)."""
import torch
import torch.nn.functional as F

from tfcheck import dtypes, randint, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    W = randn(32, 48, dtype=dt)
    params = [randn(40, dtype=dt), randn(7, 9, dtype=dt)]
    grads = [randn(40, dtype=dt), randn(7, 9, dtype=dt)]
    for step in range(2):
        x = randn(6, 48, dtype=dt)
        y = randn(6, 48, dtype=dt)
        target = randint(48, 6)
        t = W.t().contiguous()
        got = {
            "mean": x.mean(),
            "mean_dim": x.mean(-1),
            "amax": x.amax(-1),
            "max": x.max(-1).values,
            "argmax": x.argmax(-1),
            "norm": x.norm(dim=-1),
            "var": torch.var_mean(x, -1)[0],
            "sum0": x.sum(0),
            "abs": x[:, ::2].abs(),
            "add": x[:, ::2] + y[:, ::2],
            "gt": x[:, ::2] > y[:, ::2],
            "threshold": F.threshold(x, 0.1, 0.0),
            "softmax": F.softmax(x, -1),
            "layer_norm": F.layer_norm(x, (48,)),
        }
        # cross entropy, forward and backward: log_softmax (softmax_warp_
        # forward/backward) and nll_loss's 2-d kernels
        z = x.detach().clone().requires_grad_()
        ce = F.cross_entropy(z, target)
        ce.backward()
        got["ce"] = ce.detach()
        got["ce_grad"] = z.grad
        # foreach with a scalar list (TensorListScalarListMetadata)
        torch._foreach_div_(params, [2.0, 4.0])
        torch._foreach_addcdiv_(params, grads, [g.abs() + 1 for g in grads], [0.5, 0.25])
        out = torch.matmul(x, t)
        del t  # dies unread by anything else: its copy never runs
        report(f"{name}.step{step}.out", out)
        for k, v in got.items():
            report(f"{name}.step{step}.{k}", v, exact=k in ("amax", "max", "argmax", "abs", "gt", "threshold"))
    for i, p in enumerate(params):
        report(f"{name}.param{i}", p)
