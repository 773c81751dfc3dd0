#!/usr/bin/env python3
"""Recomputes every matrix blas3 prints with numpy, from the same inputs, and
compares the whole buffer (what lies outside the result must be unchanged):
float32 results to 1e-5 relative, float64 to 1e-12. Prints "ok ..." or
"MISMATCH ..." per line; exits 1 on any mismatch or missing line.

Usage: blas3_check.py OUTPUT_OF_blas3"""
import sys

import numpy as np
from refcheck import compare, tf_val

LD, M, N, K = 5, 4, 3, 3
DT = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
ALPHA = {"S": 1.5, "D": 1.5, "C": 0.5 - 1.0j, "Z": 0.5 - 1.0j}
BETA = {"S": -0.5, "D": -0.5, "C": 1.5 + 0.25j, "Z": 1.5 + 0.25j}
TRSM_OP = {"S": "N", "D": "T", "C": "C", "Z": "N"}


def cplx(p):
    return p in "CZ"


def mat(p, seed, cols, ld, tri=False):
    """The program's input: ld x cols, column-major, as the device holds it."""
    np_ = 2 if cplx(p) else 1
    parts = [tf_val(k, seed) for k in range(ld * cols * np_)]
    if tri:
        for i in range(cols):
            parts[(i + i * ld) * np_] += 3
    if cplx(p):
        flat = np.array([complex(parts[2 * e], parts[2 * e + 1]) for e in range(ld * cols)])
    else:
        flat = np.array(parts)
    return flat.reshape((cols, ld)).T.astype(DT[p]).astype(np.complex128 if cplx(p) else np.float64)


def op(a, o):
    return a if o == "N" else a.T if o == "T" else a.conj().T


def tri_update(full, old, lower, herm):
    out = old.copy()
    idx = np.tril_indices(full.shape[0]) if lower else np.triu_indices(full.shape[0])
    out[idx] = full[idx]
    if herm:
        out[np.diag_indices(full.shape[0])] = out.diagonal().real
    return out


def common(p):
    a, b = mat(p, 1, M, LD), mat(p, 2, N, LD)
    al, be = ALPHA[p], BETA[p]
    want = {}
    s = np.triu(a[:M, :M]) + np.triu(a[:M, :M], 1).T
    want["symm"] = al * s @ b[:M, :N] + be * mat(p, 3, N, M)
    c = mat(p, 3, M, M)
    bk = b[:M, :K]
    want["syrk"] = tri_update(al * bk @ bk.T + be * c, c, True, False)
    a3 = a[:K, :M]
    want["syr2k"] = tri_update(al * (a3.T @ a3 + a3.T @ a3) + be * c, c, False, False)
    t = np.tril(mat(p, 4, N, LD, True)[:N, :N])
    want["trmm"] = al * b[:M, :N] @ t.T
    u = np.triu(mat(p, 4, M, LD, True)[:M, :M], 1) + np.eye(M)
    x = mat(p, 2, N, LD)
    x[:M, :] = al * np.linalg.solve(op(u, TRSM_OP[p]), x[:M, :])
    want["trsm"] = x
    v = a.T.ravel()  # a as a flat buffer, walked from element 4 by -2
    want["dgmm"] = mat(p, 2, N, LD)[:M, :N] * np.array([v[4 - 2 * j] for j in range(N)])
    want["refused"] = mat(p, 3, N, M)
    return want


def herm(p):
    a, b = mat(p, 1, N, LD), mat(p, 2, N, LD)
    al, be, ra, rb = ALPHA[p], BETA[p], 1.5, -0.5
    want = {}
    h = np.tril(a[:N, :N], -1)
    h = h + h.conj().T + np.diag(a[:N, :N].diagonal().real)
    want["hemm"] = al * b[:M, :N] @ h + be * mat(p, 3, N, M)
    w = mat(p, 1, M, LD)[:K, :M]
    c = mat(p, 3, M, M)
    want["herk"] = tri_update(ra * w.conj().T @ w + rb * c, c, False, True)
    x, y = b[:M, :K], a[:M, :K]
    want["her2k"] = tri_update(al * x @ y.conj().T + np.conj(al) * y @ x.conj().T + rb * c, c, True, True)
    return want


def flat(m):
    cols = m.T.ravel()
    if np.iscomplexobj(cols):
        return np.column_stack([cols.real, cols.imag]).ravel()
    return cols


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    got = {(l[0], l[1]): [float(v) for v in l[4:]] for l in lines if "(" not in l[0]}
    want = {}
    for p in "SDCZ":
        want.update({(k, p): v for k, v in common(p).items()})
    for p in "CZ":
        want.update({(k, p): v for k, v in herm(p).items()})
    want[("syrkex", "C")] = want[("syrk", "C")]
    want[("herkex", "C")] = want[("herk", "C")]
    a, b = mat("C", 1, M, LD), mat("C", 2, N, LD)
    want[("gemmex", "C")] = ALPHA["C"] * a[:M, :K] @ b[:K, :N] + BETA["C"] * mat("C", 3, N, M)
    bad = compare(want, got, lambda key: 1e-5 if key[1] in "SC" else 1e-12, flat)
    refused = [l for l in lines if "(" in l[0] and "FILL_MODE_FULL" in " ".join(l)]
    if len(refused) != 4 or any(l[-1] != "7" for l in refused):
        print("MISMATCH symm with CUBLAS_FILL_MODE_FULL: expected 4 x status 7 (INVALID_VALUE)")
        bad += 1
    i8 = [l for l in lines if l[0].startswith("cublasCgemmEx(")]
    if len(i8) != 1 or i8[0][-1] != "15":
        print("MISMATCH cublasCgemmEx with CUDA_C_8I: expected status 15 (NOT_SUPPORTED)")
        bad += 1
    sys.exit(1 if bad else 0)


main()
