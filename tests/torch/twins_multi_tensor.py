"""multi_tensor_apply_kernel twins (tests/sim/aten/multi_tensor.c) against
the CPU: the torch._foreach_* ops the foreach optimizers use (add with
alpha, add/mul scalar, div by a scalar list, addcmul, addcdiv with scalar
lists, lerp with small and large weights, sqrt), in place and out of
place, over float32, bfloat16 and float16; odd sizes and a tensor of more
than one 65536-element chunk."""
import torch
from twins_check import DTYPES, check, finish, randn, run

dev = "cuda"
SHAPES = [(7, 12), (33,), (5, 33), (1,), (70001,)]


def lists(dtype, seed):
    cpu = [randn(*s, dtype=dtype, seed=seed + i) for i, s in enumerate(SHAPES)]
    return cpu, [t.to(dev) for t in cpu]


for dtype in DTYPES:
    a, ad = lists(dtype, 10)
    b, bd = lists(dtype, 20)
    c, cd = lists(dtype, 30)
    # positive operands made on the CPU (abs is an elementwise kernel)
    p = [t.abs() + 0.5 for t in c]
    pd = [t.to(dev) for t in p]
    scal = [0.25, -1.5, 3.0, 0.1, 2.0]
    ops = [
        ("add_alpha_", lambda x, y, z, zp: torch._foreach_add_([t.clone() for t in x], y, alpha=-0.3)),
        ("add_alpha", lambda x, y, z, zp: torch._foreach_add(x, y, alpha=0.7)),
        ("sub_alpha_", lambda x, y, z, zp: torch._foreach_sub_([t.clone() for t in x], y, alpha=0.5)),
        ("add_scalar_", lambda x, y, z, zp: torch._foreach_add_([t.clone() for t in x], 1.25)),
        ("mul_scalar_", lambda x, y, z, zp: torch._foreach_mul_([t.clone() for t in x], 0.9)),
        ("mul_scalar", lambda x, y, z, zp: torch._foreach_mul(x, -2.5)),
        ("div_scalarlist_", lambda x, y, z, zp: torch._foreach_div_([t.clone() for t in x], scal)),
        ("addcmul_", lambda x, y, z, zp: torch._foreach_addcmul_([t.clone() for t in x], y, z, value=0.01)),
        ("addcdiv_list_", lambda x, y, z, zp: torch._foreach_addcdiv_([t.clone() for t in x], y, zp, scal)),
        ("lerp_small_", lambda x, y, z, zp: torch._foreach_lerp_([t.clone() for t in x], y, 0.1)),
        ("lerp_large_", lambda x, y, z, zp: torch._foreach_lerp_([t.clone() for t in x], y, 0.8)),
        ("sqrt", lambda x, y, z, zp: torch._foreach_sqrt(zp)),
    ]
    for name, f in ops:
        want = f(a, b, c, p)
        got = run(f"{name} {dtype}", f, ad, bd, cd, pd)
        if got is None:
            continue
        check(f"{name} {dtype}", got, want, scale=8.0)

finish("twins_multi_tensor")
