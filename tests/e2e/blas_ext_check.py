#!/usr/bin/env python3
"""Recomputes every buffer blas_ext prints with numpy from the same inputs
(float32 results to 1e-5 relative, float64 to 1e-12) and checks the
emulation settings read back. Prints "ok ..." or "MISMATCH ..." per line;
exits 1 on any mismatch.

Usage: blas_ext_check.py OUTPUT_OF_blas_ext"""
import sys

import numpy as np
from refcheck import tf_val

M, N, K, B, P = 3, 2, 4, 2, 4
CA, CB = 0.5 - 1.0j, 1.5 + 0.25j
ZA, ZB = -1.0 + 0.5j, 0.25 - 1.5j


def parts(n, seed):
    return np.array([tf_val(k, seed) for k in range(n)])


def cplx(n, seed):
    p = parts(2 * n, seed)
    return p[0::2] + 1j * p[1::2]


def cm(v, rows, cols):
    return v[: rows * cols].reshape((cols, rows)).T.copy()


def flat(m):
    v = np.asarray(m).T.ravel()
    return np.column_stack([v.real, v.imag]).ravel() if np.iscomplexobj(v) else v


def expected():
    want = {}
    a, b, c = cm(cplx(M * K, 1), M, K), cm(cplx(K * N, 2), N, K), cm(cplx(M * N, 3), M, N)
    want["cgemm3m"] = flat(CA * a @ b.T + CB * c)
    want["cgemm3mex"] = want["cgemm3m"]
    sa, sb, sc = cplx(M * K * B, 4), cplx(K * N * B, 5), cplx(M * N * B, 6)
    out = []
    for i in range(B):
        ab = cm(sa[i * K * M:], K, M)
        bb = cm(sb[i * K * N:], K, N)
        cb = cm(sc[i * M * N:], M, N)
        out.append(flat(CA * ab.conj().T @ bb + CB * cb))
    want["cgemm3m_strided"] = np.concatenate(out)
    za, zb, zc = cm(cplx(K * M, 4), K, M), cm(cplx(K * N, 5), K, N), cm(cplx(M * N, 6), M, N)
    want["zgemm3m"] = flat(ZA * za.T @ zb + ZB * zc)
    c2 = cm(cplx(M * N, 7), M, N)
    want["cgemm3m_batched"] = flat(CA * a @ b.T + CB * c2)
    ap, full = parts(P * (P + 1) // 2, 8), cm(parts(P * 5, 9), 5, P)
    for j in range(P):
        for i in range(j + 1):
            full[i, j] = ap[i + j * (j + 1) // 2]
    want["stpttr"] = flat(full)
    zfull, zap = cm(cplx(P * P, 10), P, P), cplx(P * (P + 1) // 2, 11)
    for j in range(P):
        for i in range(j, P):
            zap[i + (2 * P - j - 1) * j // 2] = zfull[i, j]
    want["ztrttp"] = np.column_stack([zap.real, zap.imag]).ravel()
    return want


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    got = {l[0]: [float(v) for v in l[1:]] for l in lines if l[0] in expected()}
    bad = 0
    for key, exp in expected().items():
        tol = 1e-12 if key.startswith("z") else 1e-5
        if key not in got or len(got[key]) != len(exp) or not np.allclose(got[key], exp, rtol=tol, atol=tol):
            print("MISMATCH %s: expected %s, got %s" % (key, list(exp), got.get(key)))
            bad += 1
        else:
            print("ok %s" % key)
    for want in (["emulation", "defaults", "control", "0", "special", "0xffff"],
                 ["emulation", "set", "control", "1", "max", "79", "offset", "3", "pointer", "null"]):
        if want not in lines:
            print("MISMATCH missing line: %s" % " ".join(want))
            bad += 1
    if not any(l[0].startswith("cublasSetFixedPointEmulationMaxMantissaBitCount") and l[-1] == "7" for l in lines):
        print("MISMATCH a negative bit count should be INVALID_VALUE (7)")
        bad += 1
    sys.exit(1 if bad else 0)


main()
