#!/usr/bin/env python3
"""Recomputes every buffer blas2 prints with numpy, from the same inputs
(band and packed storage unpacked here), and compares the whole buffer:
float32 results to 1e-5 relative, float64 to 1e-12. Prints "ok ..." or
"MISMATCH ..." per line; exits 1 on any mismatch or missing line.

Usage: blas2_check.py OUTPUT_OF_blas2"""
import sys

import numpy as np
from refcheck import compare, tf_val

N, LD = 4, 5
CPLX = {"S": False, "D": False, "C": True, "Z": True}
DT = {"S": np.float32, "D": np.float64, "C": np.complex64, "Z": np.complex128}
ALPHA = {"S": 1.5, "D": -0.75, "C": 0.5 - 1.0j, "Z": -1.0 + 0.5j}
BETA = {"S": -0.5, "D": 2.0, "C": 1.5 + 0.25j, "Z": 0.25 - 1.5j}
RALPHA = {"C": 1.5, "Z": -0.75}
TR = {"S": "T", "D": "N", "C": "C", "Z": "T"}


def buf(p, seed, count):
    parts = [tf_val(k, seed) for k in range(count * (2 if CPLX[p] else 1))]
    if CPLX[p]:
        v = np.array([complex(parts[2 * e], parts[2 * e + 1]) for e in range(count)])
    else:
        v = np.array(parts)
    return v.astype(DT[p]).astype(np.complex128 if CPLX[p] else np.float64)


def cm(v, rows, cols):
    """Column-major view of the first rows*cols elements."""
    return v[: rows * cols].reshape((cols, rows)).T.copy()


def op(a, o):
    return a if o == "N" else a.T if o == "T" else a.conj().T


def band(ab, m, n, kl, ku):
    a = np.zeros((m, n), dtype=ab.dtype)
    for j in range(n):
        for i in range(max(0, j - ku), min(m, j + kl + 1)):
            a[i, j] = ab[ku + i - j, j]
    return a


def packed(ap, upper):
    a = np.zeros((N, N), dtype=ap.dtype)
    for j in range(N):
        for i in range(N):
            if upper and i <= j:
                a[i, j] = ap[i + j * (j + 1) // 2]
            elif not upper and i >= j:
                a[i, j] = ap[i + (2 * N - j - 1) * j // 2]
    return a


def pack(a, upper, ap):
    ap = ap.copy()
    for j in range(N):
        for i in range(N):
            if upper and i <= j:
                ap[i + j * (j + 1) // 2] = a[i, j]
            elif not upper and i >= j:
                ap[i + (2 * N - j - 1) * j // 2] = a[i, j]
    return ap


def unit(a):
    a = a.copy()
    np.fill_diagonal(a, 1)
    return a


def general(p):
    al, be, tr = ALPHA[p], BETA[p], TR[p]
    a, x, y0 = buf(p, 1, LD * N), buf(p, 2, 2 * LD), buf(p, 3, LD)
    want = {}
    full = band(cm(a, LD, N), N, N - 1, 1, 2)
    y = y0.copy()
    res = al * full.T @ x[:N] + be * y[: N - 1][::-1]
    y[: N - 1] = res[::-1]
    want["gbmv"] = y
    g = cm(buf(p, 1, LD * N), LD, N)
    yy = y0[: N - 1].conj() if p == "C" else y0[: N - 1]
    g[:N, : N - 1] += al * np.outer(x[:N], yy)
    want["ger"] = g.T.ravel()
    a4 = cm(a, LD, N)[:N, :N]
    v = y0.copy()
    v[:N] = op(np.tril(a4), tr) @ y0[:N]
    want["trmv"] = v
    v = y0.copy()
    v[:N] = np.linalg.solve(op(unit(np.triu(a4)), tr), y0[:N])
    want["trsv"] = v
    ab = cm(a, LD, N)
    v = y0.copy()
    v[:N] = band_tri(ab, True, 1) @ y0[:N]
    want["tbmv"] = v
    v = y0.copy()
    v[:N] = np.linalg.solve(op(unit(band_tri(ab, False, 2)), tr), y0[:N])
    want["tbsv"] = v
    v = y0.copy()
    v[:N] = op(packed(a, True), tr) @ y0[:N]
    want["tpmv"] = v
    v = y0.copy()
    v[:N] = np.linalg.solve(unit(packed(a, False)), y0[:N])
    want["tpsv"] = v
    return want


def band_tri(ab, upper, k):
    a = np.zeros((N, N), dtype=ab.dtype)
    for j in range(N):
        for i in range(N):
            if upper and j - k <= i <= j:
                a[i, j] = ab[k + i - j, j]
            elif not upper and j <= i <= j + k:
                a[i, j] = ab[i - j, j]
    return a


def sym_full(tri, upper, herm):
    """The symmetric / Hermitian matrix one triangle of `tri` stores."""
    t = np.triu(tri) if upper else np.tril(tri)
    off = t - np.diag(t.diagonal())
    d = t.diagonal().real if herm else t.diagonal()
    return off + (off.conj().T if herm else off.T) + np.diag(d)


def rank_update(old, upd, upper, herm):
    out = old.copy()
    idx = np.triu_indices(N) if upper else np.tril_indices(N)
    new = old + upd
    out[idx] = new[idx]
    if herm:
        out[np.diag_indices(N)] = out.diagonal().real
    return out


def sym(p):
    herm = CPLX[p]
    al, be = ALPHA[p], BETA[p]
    ra = RALPHA.get(p, al)
    sy, sb, sp = ("he", "hb", "hp") if herm else ("sy", "sb", "sp")
    a, x, y0 = buf(p, 1, LD * N), buf(p, 2, 2 * LD), buf(p, 3, LD)
    t = np.conj if herm else (lambda v: v)
    want = {}
    a4 = cm(a, LD, N)[:N, :N]
    y = y0.copy()
    y[:N] = al * sym_full(a4, True, herm) @ x[:N] + be * y0[:N]
    want[sy + "mv"] = y
    y = y0.copy()
    y[:N] = al * sym_full(band_tri(cm(a, LD, N), False, 1), False, herm) @ x[0:2 * N:2] + be * y0[:N]
    want[sb + "mv"] = y
    y = y0.copy()
    res = al * sym_full(packed(a, True), True, herm) @ x[:N] + be * y0[:N][::-1]
    y[:N] = res[::-1]
    want[sp + "mv"] = y
    m = cm(buf(p, 1, LD * N), LD, N)
    m[:N, :N] = rank_update(m[:N, :N], ra * np.outer(x[:N], t(x[:N])), False, herm)
    want[sy + "r"] = m.T.ravel()
    ap = buf(p, 1, N * (N + 1) // 2)
    want[sp + "r"] = pack(rank_update(packed(ap, True), ra * np.outer(x[:N], t(x[:N])), True, herm), True, ap)
    upd = al * np.outer(x[:N], t(y0[:N])) + (np.conj(al) if herm else al) * np.outer(y0[:N], t(x[:N]))
    m = cm(buf(p, 1, LD * N), LD, N)
    m[:N, :N] = rank_update(m[:N, :N], upd, True, herm)
    want[sy + "r2"] = m.T.ravel()
    want[sp + "r2"] = pack(rank_update(packed(ap, False), upd, False, herm), False, ap)
    return want


def csym(p):
    """The complex symmetric forms: no conjugation anywhere."""
    al, be = ALPHA[p], BETA[p]
    a, x, y0 = buf(p, 1, LD * N), buf(p, 2, 2 * LD), buf(p, 3, LD)
    want = {}
    y = y0.copy()
    res = al * sym_full(cm(a, LD, N)[:N, :N], True, False) @ x[:N] + be * y0[:N][::-1]
    y[:N] = res[::-1]
    want["csymv"] = y
    m = cm(buf(p, 1, LD * N), LD, N)
    xs = x[0:2 * N:2]
    m[:N, :N] = rank_update(m[:N, :N], al * np.outer(xs, xs), False, False)
    want["csyr"] = m.T.ravel()
    m = cm(buf(p, 1, LD * N), LD, N)
    m[:N, :N] = rank_update(m[:N, :N], al * (np.outer(x[:N], y0[:N]) + np.outer(y0[:N], x[:N])), True, False)
    want["csyr2"] = m.T.ravel()
    return want


def flat(v):
    v = np.asarray(v)
    if np.iscomplexobj(v):
        return np.column_stack([v.real, v.imag]).ravel()
    return v


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    got = {(l[0], l[1]): [float(v) for v in l[3:]] for l in lines}
    want = {}
    for p in "SDCZ":
        want.update({(k, p): v for k, v in general(p).items()})
        want.update({(k, p): v for k, v in sym(p).items()})
    for p in "CZ":
        want.update({(k, p): v for k, v in csym(p).items()})
    bad = compare(want, got, lambda key: 1e-5 if key[1] in "SC" else 1e-12, flat)
    sys.exit(1 if bad else 0)


main()
