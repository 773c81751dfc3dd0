#!/usr/bin/env bash
# On a real GPU: the seed's program in eager PyTorch (whatever torch the
# machine's python3 has) under transfold with the wheel's own libraries;
# every mode's output must equal --without's (hashes of raw bytes), and the
# summary says what folded. Output-side folding (on by default) on real cuBLAS, and
# off (TRANSFOLD_OUTPUT_FOLD=0) for comparison.
set -u
PY=${PY:-python3}
cd "$(dirname "$0")/../../.."
cat > /tmp/fc.py <<'PY'
import hashlib, torch
torch.manual_seed(0)
def h(t): return hashlib.sha256(bytes(t.contiguous().view(torch.uint8).flatten().cpu().tolist())).hexdigest()[:16]
for dt in (torch.bfloat16, torch.float16, torch.float32):
    W = torch.randn(64, 96, dtype=dt, device="cuda")
    K = torch.randn(6, 16, 8, dtype=dt, device="cuda")
    for step in range(4):
        x = torch.randn(32, 96, dtype=dt, device="cuda")
        t = W.t().contiguous()
        out = torch.matmul(x, t)
        q = torch.randn(6, 12, 8, dtype=dt, device="cuda")
        kt = K.transpose(-2, -1).contiguous()
        s = torch.matmul(q, kt)
        y = (x @ t[:, :80]).t().contiguous()
        print(dt, step, h(out), h(out.float()), h(s), h(y))
torch.cuda.synchronize()
PY
timeout 60 scripts/transfold run --without -- "$PY" /tmp/fc.py > /tmp/base.out 2>/tmp/base.err; tail -1 /tmp/base.out; tail -3 /tmp/base.err
for m in "fold|" "log|--mode log" "args|--policy args" "verify|--verify" "noofold|" ; do
  label=${m%%|*}; opts=${m#*|}
  envs=(); [ "$label" = noofold ] && envs=(TRANSFOLD_OUTPUT_FOLD=0)
  env "${envs[@]}" timeout 60 scripts/transfold run $opts --log /tmp/$label.jsonl -- "$PY" /tmp/fc.py > /tmp/$label.out 2>/tmp/$label.err
  grep -v '^transfold:' /tmp/$label.out | cmp -s - /tmp/base.out && r=EQUAL || r=DIFFERS
  echo "== $label: rc=$? output $r"; grep '^transfold:' /tmp/$label.err | sed 's/^/   /'
  [ "$r" = DIFFERS ] && diff <(grep -v '^transfold:' /tmp/$label.out) /tmp/base.out | head -6
  grep -h MISMATCH /tmp/$label.err | head -3
done
command -v jq >/dev/null && jq -r '[.event, (.key // ""), (.name // "" | .[0:60])] | join(" ")' /tmp/fold.jsonl | sort | uniq -c | sort -rn | head -20
