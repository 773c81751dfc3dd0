#!/usr/bin/env python3
"""Checks lt_algo's output: every D (run with each algorithm id and each
heuristic candidate) equals A B computed with numpy from the same inputs
(exactly: small multiples of 0.5); GetIds gave ids for f32 and for FP8 with
an FP8 D, each id ran under its own id; the configuration outside the
capabilities and the read-only ID were refused with INVALID_VALUE (7); the
emulation descriptor had the documented defaults and kept what was set;
MXFP8 block scales were NOT_SUPPORTED (15) by the heuristic (0 results)
and by the matmul, as on an H100/H200.

Usage: lt_algo_check.py OUTPUT_OF_lt_algo"""
import sys

import numpy as np
from refcheck import tf_val

M, N, K = 4, 3, 5


def main():
    lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
    a = np.array([tf_val(i, 7) for i in range(M * K)], dtype=np.float32).reshape((K, M)).T
    b = np.array([tf_val(i, 11) for i in range(K * N)], dtype=np.float32).reshape((N, K)).T
    want = list((a.astype(np.float64) @ b.astype(np.float64)).T.ravel())
    bad = []
    ids = next((l for l in lines if l[:2] == ["ids", "f32"]), None)
    if not ids or int(ids[2]) < 1 or int(ids[4]) < 1:
        bad.append("GetIds: expected ids for f32 and FP8 (E4M3 A/B, BF16 C, E4M3 D): %s" % ids)
    n = int(ids[2]) if ids else 0
    runs = [l for l in lines if l[0] == "run"]
    if [l[1] for l in runs] != ["id=%d" % i for i in range(n)]:
        bad.append("runs: expected ids 0..%d, got %s" % (n - 1, [l[1] for l in runs]))
    heur = next((l for l in lines if l[0] == "heuristic" and len(l) == 2), None)
    heur_runs = [l for l in lines if l[0] == "heuristic" and len(l) > 2]
    if not heur or int(heur[1]) < 1 or len(heur_runs) != int(heur[1]):
        bad.append("heuristic: expected one run per candidate: %s, %d runs" % (heur, len(heur_runs)))
    for l in runs + heur_runs:
        d_at = l.index("D") if "D" in l else -1
        got = [float(v) for v in l[d_at + 1:]] if d_at >= 0 else None
        if got != want:
            bad.append("%s: expected D %s, got %s" % (" ".join(l[:2]), want, " ".join(l[1:])))
    refusals = [l for l in lines if "CONFIG_ID" in " ".join(l) or l[0].startswith("cublasLtMatmulAlgoCheck")]
    refusals += [l for l in lines if l[0] == "splitk0"]
    if len(refusals) != 3 or any(l[-1] != "7" for l in refusals):
        bad.append("refusals: expected 3 x status 7: %s" % refusals)
    if ["emulation", "defaults", "strategy", "0", "special", "0xffff"] not in lines:
        bad.append("emulation defaults missing or wrong")
    if ["emulation", "strategy", "set", "1"] not in lines:
        bad.append("emulation strategy not kept")
    if ["block", "scales", "heuristic", "15", "0"] not in lines:
        bad.append("block scales: heuristic should answer 15 with 0 results")
    mm = [l for l in lines if l[0].startswith("cublasLtMatmul(")]
    if len(mm) != 1 or mm[0][-1] != "15":
        bad.append("block scales: cublasLtMatmul should answer 15: %s" % mm)
    for b_ in bad:
        print("MISMATCH " + b_)
    print("ok %d runs checked" % (len(runs) + len(heur_runs)) if not bad else "")
    sys.exit(1 if bad else 0)


main()
