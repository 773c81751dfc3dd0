"""torch.cat / torch.stack while a transpose or a GEMM is pending: ATen's
CatArrayBatchedCopy kernels (preload/aten/cat.c) are decoded into each
input's footprint and the output regions they write, so none of them is
unknown work that materializes what is pending. Each dtype: a transposing
copy deferred, then cats of unrelated tensors (along dim 0, dim 1, a 3-d
middle dim, stack, 16-byte rows (the vectorized kernel), inputs off
16-byte alignment (the plain contiguous kernel), int64, non-contiguous
inputs (the strided kernel), more inputs than an access lists), the GEMM
that reads the transpose (it folds) and a cat after it; last a cat that
reads a pending transpose itself runs it first (dst_read), as any reader
would, and a stack runs while the GEMM that reads that transpose waits
for its reader (output folding)"""
import torch

from tfcheck import dtypes, randint, randn, report

for dt in dtypes():
    name = str(dt).replace("torch.", "")
    W = randn(48, 32, dtype=dt, scale=0.1)
    x = randn(4, 32, dtype=dt)
    a, b, c = randn(5, 7, dtype=dt), randn(3, 7, dtype=dt), randn(5, 2, dtype=dt)
    p, q = randn(7, 5, dtype=dt), randn(7, 3, dtype=dt)
    r, s = randn(2, 3, 8, dtype=dt), randn(2, 5, 8, dtype=dt)
    v, w = randn(3, 8, dtype=dt), randn(3, 16, dtype=dt)
    many = [randn(3, 2, dtype=dt) for _ in range(12)]
    ia = randint(100, 5, 3)
    t = W.t().contiguous()
    cats = {
        "dim0": torch.cat([a, b], 0),
        "dim1": torch.cat([a, c, a], 1),
        "mid": torch.cat([r, s], 1),
        "stack": torch.stack([a, a]),
        "vec": torch.cat([v, w], 1),
        "strided0": torch.cat([p.t(), q.t()], 0),
        "strided1": torch.cat([p.t(), p.t()], 1),
        "many": torch.cat(many, 1),
        "unaligned": torch.cat([a[1:], b[1:]], 0),  # off 16-byte alignment: the plain contiguous kernel
        "i64": torch.cat([ia, ia[:2]], 0),
    }
    y = torch.matmul(x, t)
    cats["after_fold"] = torch.cat([b, b, a], 0)
    report(f"{name}.y", y)
    for k, out in cats.items():
        report(f"{name}.cat.{k}", out, exact=True)
    del W, t, y  # the record leaves with its tensor (dst_freed)

    W2 = randn(40, 32, dtype=dt, scale=0.1)
    z = randn(2, 40, dtype=dt)
    t2 = W2.t().contiguous()
    both = torch.cat([t2, z], 0)
    y2 = torch.matmul(x, t2)  # deferred until read (output folding)
    while_gemm = torch.stack([a, a, a], 2)
    report(f"{name}.reads_pending.y", y2)
    report(f"{name}.reads_pending.cat", both, exact=True)
    report(f"{name}.gemm_pending.cat", while_gemm, exact=True)
