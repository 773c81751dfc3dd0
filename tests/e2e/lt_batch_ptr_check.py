#!/usr/bin/env python3
"""Checks lt_batch_ptr's output: each batch's D equals A_i B_i computed with
numpy from the same inputs (exactly: multiples of 0.5).

Usage: lt_batch_ptr_check.py OUTPUT_OF_lt_batch_ptr"""
import sys

import numpy as np
from refcheck import tf_val

M, N, K, BATCH = 4, 3, 5, 3


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    got = {int(l[1]): [float(v) for v in l[3:]] for l in lines if l[0] == "batch"}
    bad = 0
    for i in range(BATCH):
        a = np.array([tf_val(j, 20 + i) for j in range(M * K)]).reshape((K, M)).T
        b = np.array([tf_val(j, 30 + i) for j in range(K * N)]).reshape((N, K)).T
        want = list((a @ b).T.ravel())
        if got.get(i) != want:
            print("MISMATCH batch %d: expected %s, got %s" % (i, want, got.get(i)))
            bad += 1
        else:
            print("ok batch %d" % i)
    sys.exit(1 if bad else 0)


main()
