#!/usr/bin/env python3
"""Checks lt_imma's output: GetIds gave ids for the IMMA types; each
transformed buffer holds every element of A (COL32) and of B^T (COL4_4R2_8C,
COL32_2R_4R4) where the order puts it, 0x5a elsewhere; each C (and the
column-order TN one) equals A B computed with numpy (exact: integers).

Positions, (r, c) of a matrix in 32-column panels of ld elements:
  COL32         panel c//32, r*32 + c%32;
  COL4_4R2_8C   8-row tiles of 256; inside, 32-element units for the even
                rows of each 8 columns, then the odd rows; inside a unit,
                4 x 4 blocks (columns c%4 over rows of one parity);
  COL32_2R_4R4  32-row tiles of 1024; row t of a tile at position
                ((t%8)//2*4 + t//8)*2 + t%2 (cublasLt.h), 32 elements each.

Usage: lt_imma_check.py OUTPUT_OF_lt_imma"""
import sys

import numpy as np
from refcheck import read_tokens, tf_val

M, N, K = 40, 20, 70


def roundoff(x, to):
    return -(-x // to) * to


def pos_col32(r, c, ld):
    return (c // 32) * ld + r * 32 + c % 32


def pos_col4(r, c, ld):
    t, cc = r % 8, c % 32
    unit = (t % 2) * 4 + cc // 8
    row_in_unit = (cc % 8 >= 4) * 4 + t // 2
    return (c // 32) * ld + (r // 8) * 256 + unit * 32 + row_in_unit * 4 + cc % 4


def pos_col32_2r(r, c, ld):
    t = r % 32
    return (c // 32) * ld + (r // 32) * 1024 + (((t % 8) // 2 * 4 + t // 8) * 2 + t % 2) * 32 + c % 32


def check_buffer(got, mat, pos, ld):
    want = [0x5A] * len(got)
    rows, cols = mat.shape
    for r in range(rows):
        for c in range(cols):
            want[pos(r, c, ld)] = int(mat[r, c]) & 0xFF
    return want == got


def main():
    out = read_tokens(sys.argv[1])
    a = np.array([[2 * tf_val(i + j * M, 1) for j in range(K)] for i in range(M)], dtype=np.int64)
    b = np.array([[2 * tf_val(i + j * K, 2) for j in range(N)] for i in range(K)], dtype=np.int64)
    c = a @ b
    bad = 0

    def report(name, ok):
        nonlocal bad
        print(("ok %s" if ok else "MISMATCH %s") % name)
        bad += 0 if ok else 1

    report("ids", ("ids", "imma") in out and int(out[("ids", "imma")][0]) >= 1)
    for name, pos, tile in (("col4", pos_col4, 8), ("col32_2r", pos_col32_2r, 32)):
        if (name, "A") not in out or (name, "B") not in out or (name, "C") not in out:
            report(name + " output", False)
            continue
        got_a = list(bytes.fromhex("".join(out[(name, "A")])))
        got_b = list(bytes.fromhex("".join(out[(name, "B")])))
        report(name + " A in COL32", check_buffer(got_a, a, pos_col32, 32 * M))
        report(name + " B^T in its order", check_buffer(got_b, b.T, pos, 32 * roundoff(N, tile)))
        got_c = [int(v) for v in out[(name, "C")]]
        report(name + " C = A B", got_c == [int(v) for v in c.T.ravel()])
    got = [int(v) for v in out.get(("col", "C"), [])]
    report("col C = A B (TN, column order)", got == [int(v) for v in c.T.ravel()])
    sys.exit(1 if bad else 0)


main()
