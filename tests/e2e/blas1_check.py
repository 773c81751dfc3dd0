#!/usr/bin/env python3
"""Recomputes every line blas1 prints with numpy, from the same inputs, and
compares (float32 results to 1e-6 relative, float64 to 1e-12). Prints one
line per check, "ok <line>" or "MISMATCH <line>: expected ...", and exits 1
on any mismatch or missing line.

Usage: blas1_check.py OUTPUT_OF_blas1"""
import sys

import numpy as np
from refcheck import compare, tf_val

N = 7
TYPES = {"S": (np.float32, False), "D": (np.float64, False), "C": (np.complex64, True), "Z": (np.complex128, True)}
ALPHA = {"S": 1.5, "D": -0.75, "C": 1.5 - 0.5j, "Z": -0.25 + 2.0j}


def vec(p, which):
    dt, cplx = TYPES[p]
    seed = 3 if which == 0 else 5
    parts = [tf_val(i, seed) for i in range(N * (2 if cplx else 1))]
    if cplx:
        return np.array([complex(parts[2 * i], parts[2 * i + 1]) for i in range(N)], dtype=dt)
    return np.array(parts, dtype=dt)


def flat(v):
    v = np.asarray(v)
    if np.iscomplexobj(v):
        return np.column_stack([v.real, v.imag]).ravel().astype(np.float64)
    return v.astype(np.float64).ravel()


def mag(v):
    return np.abs(v.real) + np.abs(v.imag) if np.iscomplexobj(v) else np.abs(v)


def per_type(p):
    dt, _ = TYPES[p]
    a = dt(ALPHA[p])
    x, y = vec(p, 0), vec(p, 1)
    out = {}
    out["axpy"] = a * x + y
    yn = y.copy()  # n = N-1, incy = -1: y walked from element N-2 down
    for i in range(N - 1):
        yn[N - 2 - i] += a * x[i]
    out["axpy_64_neg"] = yn
    out["scal"] = a * x
    yc = y.copy()
    yc[:3] = x[0:6:2]
    out["copy_stride"] = yc
    out["swap_x"], out["swap_y"] = y, x
    out["nrm2_asum"] = [np.linalg.norm(x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)), np.sum(mag(x))]
    out["iamax_iamin"] = [np.argmax(mag(x)) + 1, np.argmin(mag(x)) + 1, np.argmax(mag(y[::2][:N])) + 1]
    return {(k, p): v for k, v in out.items()}


def rotations():
    out = {}
    c, s = 0.6, 0.8
    x, y = vec("S", 0).astype(np.float64), vec("S", 1).astype(np.float64)
    out[("rot_x", "S")], out[("rot_y", "S")] = c * x + s * y, c * y - s * x
    x, y = vec("C", 0).astype(np.complex128), vec("C", 1).astype(np.complex128)
    cs = np.complex64(0.48 + 0.64j).astype(np.complex128)
    x, y = c * x + cs * y, c * y - np.conj(cs) * x
    out[("crot_x", "C")], out[("crot_y", "C")] = x, y
    x, y = c * x + s * y, c * y - s * x
    out[("csrot_x", "C")], out[("csrot_y", "C")] = x, y
    h = np.array([[0.5, 2.0], [-0.25, 1.5]])  # flag -1: full H from param
    x, y = vec("D", 0), vec("D", 1)
    out[("rotm_x", "D")], out[("rotm_y", "D")] = h[0, 0] * x + h[0, 1] * y, h[1, 0] * x + h[1, 1] * y
    r = 5.0  # rotg(3, 4): r = sign(b) * 5 as |b| > |a|; c = 3/5, s = 4/5, z = 1/c
    out[("rotg", "S")] = [r, 1 / 0.6, 0.6, 0.8]
    return out


def check_rotmg(vals):
    """rotmg(d1=2, d2=3, x1=1.5, y1=-0.5): H applied to (x1, y1) zeroes the
    second part and keeps the weighted norm: d1' x1'^2 = d1 x1^2 + d2 y1^2."""
    d1, d2, x1, flag, h11, h21, h12, h22 = vals
    if flag == -1:
        h = np.array([[h11, h12], [h21, h22]])
    elif flag == 0:
        h = np.array([[1.0, h12], [h21, 1.0]])
    elif flag == 1:
        h = np.array([[h11, 1.0], [-1.0, h22]])
    else:
        h = np.eye(2)
    v = h @ np.array([1.5, -0.5])
    return abs(v[1]) < 1e-12 and abs(v[0] - x1) < 1e-12 and abs(d1 * x1 * x1 - (2 * 1.5**2 + 3 * 0.25)) < 1e-12


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    got = {(l[0], l[1]): [float(v) for v in l[2:]] for l in lines if len(l) > 1 and "(" not in l[0]}
    want = {}
    for p in TYPES:
        want.update(per_type(p))
    want.update(rotations())
    x, y = {p: vec(p, 0) for p in TYPES}, {p: vec(p, 1) for p in TYPES}
    want[("dot", "SD")] = [np.dot(x["S"], y["S"]), np.dot(x["D"], y["D"])]
    for p in "CZ":
        want[("dotu_dotc", p)] = [np.sum(x[p] * y[p]), np.vdot(x[p], y[p])]
    want[("ex_axpy", "S")] = want[("axpy", "S")]
    want[("ex_csscal", "C")] = np.float32(1.5) * x["C"]
    zdotc = np.vdot(x["Z"], y["Z"])
    want[("ex_nrm2_iamax_dotc", "X")] = [np.linalg.norm(x["C"].astype(np.complex128)), np.argmax(np.abs(x["D"])) + 1,
                                         zdotc.real, zdotc.imag]
    bad = compare(want, got, lambda key: 1e-6 if key[1] in ("S", "C", "SD", "X") else 1e-12, flat)
    if ("rotmg", "D") not in got or not check_rotmg(got[("rotmg", "D")]):
        print("MISMATCH rotmg D: %s" % got.get(("rotmg", "D")))
        bad += 1
    else:
        print("ok rotmg D")
    if not any(l[-2:] == ["->", "15"] and l[0].startswith("cublasAxpyEx") for l in lines):
        print("MISMATCH half-precision cublasAxpyEx: expected status 15 (CUBLAS_STATUS_NOT_SUPPORTED)")
        bad += 1
    if not any(l[-2:] == ["->", "15"] and l[0].startswith("cublasSgelsBatched") for l in lines):
        print("MISMATCH cublasSgelsBatched: expected status 15 (CUBLAS_STATUS_NOT_SUPPORTED)")
        bad += 1
    sys.exit(1 if bad else 0)


main()
