#!/usr/bin/env python3
"""Recomputes every C gemm_grouped prints with numpy from the same inputs
(exactly: small multiples of 0.5) and compares.

Usage: gemm_grouped_check.py OUTPUT_OF_gemm_grouped"""
import sys

import numpy as np
from refcheck import tf_val

M, N, K, SIZE = [3, 2], [2, 3], [4, 2], [2, 1]
TA = ["N", "T"]
ALPHA, BETA = [1.5, -0.5], [0.5, 2.0]


def cm(seed, rows, cols):
    return np.array([tf_val(k, seed) for k in range(rows * cols)]).reshape((cols, rows)).T


def main():
    got = {(l.split()[0], int(l.split()[1])): [float(v) for v in l.split()[2:]] for l in open(sys.argv[1]) if l.strip()}
    bad = 0
    for entry in ("sgemm", "ex"):
        for p in range(3):
            g = 0 if p < SIZE[0] else 1
            a = cm(10 + p, M[g], K[g]) if TA[g] == "N" else cm(10 + p, K[g], M[g]).T
            b, c = cm(20 + p, K[g], N[g]), cm(30 + p, M[g], N[g])
            want = list((ALPHA[g] * a @ b + BETA[g] * c).T.ravel())
            if got.get((entry, p)) != want:
                print("MISMATCH %s %d: expected %s, got %s" % (entry, p, want, got.get((entry, p))))
                bad += 1
            else:
                print("ok %s %d" % (entry, p))
    sys.exit(1 if bad else 0)


main()
