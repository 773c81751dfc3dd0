#!/usr/bin/env bash
# On a machine with a real GPU: the PyTorch suite's folding programs under
# transfold with the wheel's own libraries (no stand-in), outputs compared
# with --without, event counts, and output-side folding on real cuBLAS.
# Usage: tests/torch/gpu/device-check.sh   (needs build/libtransfold.so)
set -u
cd "$(dirname "$0")/../../.."
nvidia-smi -L
PY=$(command -v python3)
for p in /usr/bin/python3 /usr/local/bin/python3 $(ls -d /opt/*/bin/python3 /root/*/bin/python3 2>/dev/null); do
  "$p" -c 'import torch' 2>/dev/null && { PY=$p; break; }
done
"$PY" -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name())' || exit 1
# a wrapper, not a link: a venv's interpreter finds its packages by its own path
mkdir -p /tmp/tv/bin && printf '#!/bin/sh\nexec %s "$@"\n' "$PY" > /tmp/tv/bin/python && chmod +x /tmp/tv/bin/python
command -v jq >/dev/null || echo "no jq: event counts will not be checked"
export TRANSFOLD_BUILD=$PWD/build
# the folding programs and the seed under every mode
TORCH_VENV=/tmp/tv TORCH_TEST_JOBS=8 timeout 240 bash tests/torch/run.sh prog_fold_seed prog_fold_float prog_fold_shapes prog_seed prog_mlp_sgd prog_transpose_reads 2>&1 | tail -60
# output-side folding on real cuBLAS: y = x @ w; t = y.t().contiguous()
cat > /tmp/of.py <<'PY'
import hashlib, torch
torch.manual_seed(0)
for dt in (torch.float32, torch.bfloat16, torch.float16):
    for (m, k, n) in ((64, 96, 80), (768, 1024, 512), (33, 77, 129)):
        x = torch.randn(m, k, dtype=dt, device="cuda"); w = torch.randn(k, n, dtype=dt, device="cuda")
        t = (x @ w).t().contiguous()
        torch.cuda.synchronize()
        print(dt, m, k, n, hashlib.sha256(bytes(t.cpu().view(torch.uint8).flatten().tolist())).hexdigest()[:16])
PY
for env in "" "TRANSFOLD_OUTPUT_FOLD=0"; do
  echo "== output fold: ${env:-plain}"
  env $env TRANSFOLD_LOG=/tmp/of-${#env}.jsonl timeout 60 scripts/transfold run -- "$PY" /tmp/of.py > /tmp/of-${#env}.out 2>&1
  tail -4 /tmp/of-${#env}.out
done
timeout 60 scripts/transfold run --without -- "$PY" /tmp/of.py > /tmp/of-base.out 2>&1
for f in /tmp/of-0.out /tmp/of-23.out; do grep -v '^transfold:' "$f" | diff -q - <(cat /tmp/of-base.out) >/dev/null && echo "$f equal to --without" || { echo "$f DIFFERS"; diff <(grep -v '^transfold:' "$f") /tmp/of-base.out | head; }; done
command -v jq >/dev/null && jq -r .event /tmp/of-23.jsonl | sort | uniq -c
