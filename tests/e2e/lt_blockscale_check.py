#!/usr/bin/env python3
"""Checks lt_blockscale's output against numpy: each D = 2 * (A_s^T B_s) + C
where A_s and B_s are A and B with each element multiplied by its block's
factor (factors read through the tiled 128 x 4 layout, built here with
numpy reshapes) or by the per-row and per-column factors (OUTER_VEC_32F);
a block-quantized D holds, per block of 32 (16) rows of each column, the
smallest UE8M0 (UE4M3) factor bringing the block's largest magnitude within
E4M3 (E2M1), and the values divided by it and rounded to nearest even;
AMAX_D is the largest magnitude before the D scale. GetIds gives ids for
NVFP4 and FP8 types with a narrow D; the refusals are NOT_SUPPORTED (15).
The output of `lt_blockscale hopper` (first line "mode hopper") is checked
for Hopper's fp32 block scales instead: each element of op(A) times the
factor of its row's (VEC128_32F) or its 128-row tile's (BLK128x128_32F)
k-block of 128, likewise op(B), the factors recomputed here.

Usage: lt_blockscale_check.py OUTPUT_OF_lt_blockscale"""
import math
import struct
import sys

import numpy as np
from refcheck import read_tokens, tf_val

M, N, K = 136, 24, 256


def fp8_e4m3(code):
    e, m = (code >> 3) & 15, code & 7
    v = m * 2.0 ** -9 if e == 0 else (8 + m) * 2.0 ** (e - 10)
    return -v if code & 0x80 else v


E4M3 = {fp8_e4m3(c): c for c in range(0x7f)}
E2M1_MAG = [0, 0.5, 1, 1.5, 2, 3, 4, 6]


def round_to(table, v):
    """Nearest value of a sorted magnitude table, ties to the even index, saturating."""
    a = abs(v)
    best = min(range(len(table)), key=lambda i: (abs(table[i] - a), i % 2))
    return best, (-table[best] if v < 0 else table[best])


def e4m3_code(v):
    mags = sorted(k for k in E4M3 if k >= 0)
    i, q = round_to(mags, v)
    return E4M3[abs(q)] | (0x80 if v < 0 or (v == 0 and math.copysign(1, v) < 0) else 0)


def e2m1_code(v):
    i, _ = round_to(E2M1_MAG, v)
    return i | (8 if math.copysign(1, v) < 0 else 0)


def bf16(v):
    b = struct.unpack("<I", struct.pack("<f", v))[0]
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def tiled(s):
    """The factors s[outer, block] as the library reads them: padded to
    128 x 4 tiles, tiles along the blocks first, rows 32 apart interleaved."""
    o, b = s.shape
    op, bp = -(-o // 128) * 128, -(-b // 4) * 4
    pad = np.full((op, bp), -1, dtype=np.int64)
    pad[:o, :b] = s
    return pad.reshape(op // 128, 4, 32, bp // 4, 4).transpose(0, 3, 2, 1, 4).ravel()


def untile(flat, outer, blocks):
    """Inverse of tiled: the factor codes of the program's D_OUT array."""
    idx = tiled(np.arange(outer * blocks).reshape(outer, blocks))
    out = np.zeros(outer * blocks, dtype=np.int64)
    for pos, i in enumerate(idx):
        if i >= 0:
            out[i] = flat[pos]
    return out.reshape(outer, blocks)


def factor_codes(outer, vec, seed):
    ue4m3 = [0x30, 0x38, 0x3C, 0x40]
    v = [[(r * 5 + b * 7 + r // 128 * 2 + b // 4 + seed) % 4 for b in range(K // vec)] for r in range(outer)]
    return np.array([[125 + x if vec == 32 else ue4m3[x] for x in row] for row in v])


def factor_value(code, vec):
    return 2.0 ** (int(code) - 127) if vec == 32 else fp8_e4m3(int(code))


def operand(cols, seed, vec, fseed):
    """op(X) (cols x K) with block factors applied, from the program's inputs."""
    x = np.array([[tf_val(k + c * K, seed) for k in range(K)] for c in range(cols)])
    if vec:
        codes = factor_codes(cols, vec, fseed)
        x = x * np.array([[factor_value(codes[c, k // vec], vec) for k in range(K)] for c in range(cols)])
    return x


def c_matrix():
    return np.array([[tf_val(i + j * M, 5) for j in range(N)] for i in range(M)])


def quantize(x, vec, fmax, code_of, enc):
    """Block-quantized D of column-major x: codes per (column, block), D codes."""
    codes = np.zeros((N, -(-M // vec)), dtype=np.int64)
    d = np.zeros(M * N, dtype=np.int64)
    for j in range(N):
        for b0 in range(0, M, vec):
            blk = x[b0:b0 + vec, j]
            code = code_of(float(np.abs(blk).max()) / fmax)
            codes[j, b0 // vec] = code
            sf = np.float32(factor_value(code, vec))
            for i in range(b0, min(b0 + vec, M)):
                d[i + j * M] = enc(float(np.float32(x[i, j]) / sf) if sf > 0 else 0.0)
    return codes, d


def ue8m0_ceil(w):
    return 0 if w <= 0 else int(math.ceil(math.log2(w))) + 127


def ue4m3_ceil(w):
    return 0 if w <= 0 else min(c for c in range(0x7f) if fp8_e4m3(c) >= w)


def hexbytes(tokens):
    return bytes.fromhex("".join(tokens))


def bf16_values(got):
    """The BF16 D of the program's hex bytes, as floats."""
    if got is None:
        return None
    return [struct.unpack("<f", struct.pack("<I", (got[2 * i + 1] << 24) | (got[2 * i] << 16)))[0] for i in range(M * N)]


def f32_factor(o, b, seed):
    """lt_blockscale.c's f32_factor: the fp32 factor of outer index o, k-block b."""
    return 0.25 * (1 + (o * 37 + b * 11 + (o * o) % 13 + o // 128 * 3 + seed) % 8)


def f32_scaled(cols, seed, blk, fseed):
    """op(X) (cols x K) times its VEC128_32F (blk: BLK128x128_32F) factors."""
    x = operand(cols, seed, 0, 0)
    f = np.array([[f32_factor(c // 128 if blk else c, k // 128, fseed) for k in range(K)] for c in range(cols)])
    return x * f


def check_hopper(out, c, expect, got_bytes):
    runs = {"v128v128": (False, False), "v128blk": (False, True), "blkv128": (True, False)}
    for name, (ablk, bblk) in runs.items():
        a = f32_scaled(M, 1, ablk, 3 if ablk else 1)
        b = f32_scaled(N, 2, bblk, 4 if bblk else 2)
        x = 2 * (a @ b.T) + c
        expect((name, "D"), [bf16(float(x[i % M, i // M])) for i in range(M * N)], bf16_values(got_bytes((name, "D"))))
    for name in ("blkblk", "v128scalar", "v128fp8d"):
        expect(("refused", name), ["15"], out.get(("refused", name)))


def main():
    out = read_tokens(sys.argv[1])
    c = c_matrix()
    bad = 0

    def expect(key, want, got):
        nonlocal bad
        if got is None or list(want) != list(got):
            print("MISMATCH %s %s: expected %s..., got %s..." % (key + (list(want)[:8], None if got is None else list(got)[:8])))
            bad += 1
        else:
            print("ok %s %s" % key)

    def got_bytes(key):
        return list(hexbytes(out[key])) if key in out else None

    if ("mode", "hopper") in out:
        check_hopper(out, c, expect, got_bytes)
        sys.exit(1 if bad else 0)

    a8, b8 = operand(M, 1, 32, 1), operand(N, 2, 32, 2)
    x = 2 * (a8 @ b8.T) + c
    codes, d = quantize(x, 32, 448.0, ue8m0_ceil, e4m3_code)
    expect(("mxfp8", "D"), d, got_bytes(("mxfp8", "D")))
    got = got_bytes(("mxfp8", "dout"))
    expect(("mxfp8", "dout"), codes.ravel(), None if got is None else untile(got, N, codes.shape[1]).ravel())
    expect(("mxfp8", "amax"), struct.pack("<f", float(np.abs(x).max())), got_bytes(("mxfp8", "amax")))

    a4, b4 = operand(M, 3, 16, 3), operand(N, 4, 16, 4)
    x4 = 2 * (a4 @ b4.T) + c
    got = got_bytes(("nvfp4", "D"))
    vals = None if got is None else [struct.unpack("<f", struct.pack("<I", (got[2 * i + 1] << 24) | (got[2 * i] << 16)))[0] for i in range(M * N)]
    expect(("nvfp4", "D"), [bf16(float(x4[i % M, i // M])) for i in range(M * N)], vals)

    codes, d = quantize(0.5 * x4, 16, 6.0, ue4m3_ceil, e2m1_code)
    got = got_bytes(("nvfp4q", "D"))
    expect(("nvfp4q", "D"), d, None if got is None else [(got[i // 2] >> (4 * (i % 2))) & 15 for i in range(M * N)])
    got = got_bytes(("nvfp4q", "dout"))
    expect(("nvfp4q", "dout"), codes.ravel(), None if got is None else untile(got, N, codes.shape[1]).ravel())
    expect(("nvfp4q", "amax"), struct.pack("<f", float(np.abs(x4).max())), got_bytes(("nvfp4q", "amax")))

    oa = np.array([0.25 * (1 + (i * 5 + 1) % 8) for i in range(M)])
    ob = np.array([0.25 * (1 + (j * 5 + 2) % 8) for j in range(N)])
    a, b = operand(M, 1, 0, 0), operand(N, 2, 0, 0)
    xo = 2 * np.outer(oa, ob) * (a @ b.T) + c
    got = got_bytes(("outer", "D"))
    vals = None if got is None else [struct.unpack("<f", struct.pack("<I", (got[2 * i + 1] << 24) | (got[2 * i] << 16)))[0] for i in range(M * N)]
    expect(("outer", "D"), [bf16(float(xo[i % M, i // M])) for i in range(M * N)], vals)

    ids = out.get(("ids", "fp4"))
    report_ids = ids is not None and len(ids) == 3 and int(ids[0]) >= 1 and int(ids[2]) >= 1
    expect(("ids", "fp4 fp8"), [True], [report_ids])
    for name in ("vec128", "mixed", "transform_fp4"):
        expect(("refused", name), ["15"], out.get(("refused", name)))
    sys.exit(1 if bad else 0)


main()
