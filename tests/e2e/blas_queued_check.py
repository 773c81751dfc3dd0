#!/usr/bin/env python3
"""Checks blas_queued's output: x, y, z after y = 2 x[::2] + y0 (alpha read
when saxpy was called), y *= 0.5, z = y, swap x[::2] <-> z, recomputed with
numpy from the same inputs (exact: multiples of 0.25).

Usage: blas_queued_check.py OUTPUT_OF_blas_queued"""
import sys

import numpy as np
from refcheck import compare, tf_val

N = 37


def main():
    got = {(l.split()[0], "f32"): [float(v) for v in l.split()[1:]] for l in open(sys.argv[1]) if l.strip()}
    x = np.array([tf_val(i, 1) for i in range(2 * N)])
    y = np.array([tf_val(i, 2) for i in range(N)])
    y = 0.5 * (2 * x[::2] + y)
    z = x[::2].copy()
    x[::2] = y
    want = {("x", "f32"): x, ("y", "f32"): y, ("z", "f32"): z}
    sys.exit(1 if compare(want, got, lambda key: 0, lambda v: list(v)) else 0)


main()
