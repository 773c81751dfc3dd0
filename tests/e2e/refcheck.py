"""What the *_check.py scripts share: the programs' input values
(tests/programs/common.h's tf_val) and the comparison of expected results
with a program's output lines."""
import numpy as np


def tf_val(i, seed):
    """common.h's tf_val: small multiples of 0.5, exact in every type."""
    return ((i * 2654435761 + seed * 97) % 9 - 4) * 0.5


def read_tokens(path):
    """A program's output lines "NAME TYPE v0 v1 ...", keyed by (NAME, TYPE),
    the values left as tokens."""
    out = {}
    for line in open(path):
        t = line.split()
        if len(t) >= 2:
            out[(t[0], t[1])] = t[2:]
    return out


def compare(want, got, tol_of, flat):
    """Prints ok / MISSING / MISMATCH for each (name, type) key of want
    against got's floats; returns how many did not agree."""
    bad = 0
    for key, value in want.items():
        tol = tol_of(key)
        if key not in got:
            print("MISSING %s %s" % key)
            bad += 1
            continue
        exp = flat(value)
        if len(exp) != len(got[key]) or not np.allclose(got[key], exp, rtol=tol, atol=tol):
            print("MISMATCH %s %s: expected %s, got %s" % (key[0], key[1], list(exp), got[key]))
            bad += 1
        else:
            print("ok %s %s" % key)
    return bad
