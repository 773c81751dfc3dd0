#!/usr/bin/env python3
"""Recomputes every buffer blas3x prints with numpy from the same inputs
(float32 to 1e-5 relative, float64 to 1e-12): syrkx and herkx on their
triangle of C (herkx's diagonal real), the rest of C unchanged; each
trsmBatched batch solved on its own.

Usage: blas3x_check.py OUTPUT_OF_blas3x"""
import sys

import numpy as np
from refcheck import tf_val

N, K, LD = 4, 3, 5


def parts(n, seed, diag=False):
    return np.array([tf_val(k, seed) + (3 if diag and k % (LD + 1) == 0 else 0) for k in range(n)])


def cplx(n, seed):
    p = parts(2 * n, seed)
    return p[0::2] + 1j * p[1::2]


def cm(v, rows, cols):
    return v[: rows * cols].reshape((cols, rows)).T.copy()


def tri(full, old, upper, herm=False):
    out = old.copy()
    idx = np.triu_indices(N) if upper else np.tril_indices(N)
    out[idx] = full[idx]
    if herm:
        out[np.diag_indices(N)] = out.diagonal().real
    return out


def flat(m):
    v = np.asarray(m).T.ravel()
    return np.column_stack([v.real, v.imag]).ravel() if np.iscomplexobj(v) else v


def expected():
    want = {}
    a, b, c = cm(parts(LD * K, 1), LD, K)[:N], cm(parts(LD * K, 2), LD, K)[:N], cm(parts(N * N, 3), N, N)
    want["ssyrkx"] = flat(tri(1.5 * a @ b.T - 0.5 * c, c, True))
    za, zb = cm(cplx(LD * N, 4), LD, N)[:K], cm(cplx(LD * N, 5), LD, N)[:K]
    zc = cm(cplx(N * N, 6), N, N)
    want["zsyrkx"] = flat(tri((-1 + 0.5j) * za.T @ zb + (0.25 - 1.5j) * zc, zc, False))
    ca, cb = cm(cplx(LD * N, 7), LD, N)[:K], cm(cplx(LD * N, 8), LD, N)[:K]
    cc = cm(cplx(N * N, 9), N, N)
    want["cherkx"] = flat(tri((0.5 - 1j) * ca.conj().T @ cb - 0.5 * cc, cc, True, True))
    for i in range(2):
        t = np.triu(cm(parts(LD * N, 10 + i, True), LD, N)[:N])
        x = cm(parts(LD * K, 12 + i), LD, K)
        x[:N] = np.linalg.solve(t, 2.0 * x[:N])
        want["dtrsm_batched%d" % i] = flat(x)
    return want


def main():
    got = {l.split()[0]: [float(v) for v in l.split()[1:]] for l in open(sys.argv[1]) if l.strip()}
    bad = 0
    for key, exp in expected().items():
        tol = 1e-5 if key[0] in "sc" else 1e-12
        if key not in got or len(got[key]) != len(exp) or not np.allclose(got[key], exp, rtol=tol, atol=tol):
            print("MISMATCH %s: expected %s, got %s" % (key, list(exp), got.get(key)))
            bad += 1
        else:
            print("ok %s" % key)
    sys.exit(1 if bad else 0)


main()
