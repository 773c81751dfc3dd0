#!/usr/bin/env python3
"""Checks lt_planar's output: each batch's D = A^H B + beta C computed with
numpy from the same planar inputs (float32 parts; to 1e-5 relative).

Usage: lt_planar_check.py OUTPUT_OF_lt_planar"""
import sys

import numpy as np
from refcheck import tf_val

M, N, K, BATCH = 4, 3, 5, 2
BETA = 0.5 - 0.5j


def mat(seed, b, rows, cols, ld, elems):
    """Batch b of the program's planar input as a rows x cols complex matrix."""
    e = [complex(tf_val(2 * (b * elems + k), seed), tf_val(2 * (b * elems + k) + 1, seed)) for k in range(elems)]
    return np.array([[e[i + j * ld] for j in range(cols)] for i in range(rows)], dtype=np.complex64).astype(np.complex128)


def main():
    got = {int(l.split()[1]): [float(v) for v in l.split()[2:]] for l in open(sys.argv[1]) if l.startswith("batch")}
    bad = 0
    for b in range(BATCH):
        a, bb = mat(1, b, K, M, K, K * M), mat(2, b, K, N, K, K * N)
        c = mat(3, b, M, N, 6, 6 * N)
        d = a.conj().T @ bb + BETA * c
        want = list(d.real.T.ravel()) + list(d.imag.T.ravel())
        if b not in got or not np.allclose(got[b], want, rtol=1e-5, atol=1e-5):
            print("MISMATCH batch %d: expected %s, got %s" % (b, want, got.get(b)))
            bad += 1
        else:
            print("ok batch %d" % b)
    sys.exit(1 if bad else 0)


main()
