#!/usr/bin/env bash
# gpu-check: transfold on a machine with a real NVIDIA GPU (make gpu-check).
#
# 1. Builds (make all programs).
# 2. Runs every case of the end-to-end suite (the `run_all` lines of
#    tests/e2e/cases.sh) and the demo on the real driver (no stand-in on
#    LD_LIBRARY_PATH) three times: without transfold, folding, and folding
#    with TRANSFOLD_VERIFY=1.
#    How outputs are compared:
#    - the exit statuses must be equal;
#    - stdout must be byte-equal. The programs print hashes of exact bytes,
#      which a GPU could legitimately change between a folded and an unfolded
#      GEMM (a transposed operand may select another kernel and summation
#      order), but their inputs are small multiples of 0.5, so every product
#      and partial sum is exact and any order gives the same bytes: a byte
#      difference is a finding, not noise;
#    - when the bytes still differ, the case passes "within tolerance" only if
#      the lines differ in nothing but hex words (hashes, element bits) AND
#      the verify run checked every folded GEMM (verify mode recomputes each
#      one unfolded into scratch memory and compares within a tolerance from
#      the dtype and k) with no "MISMATCH"; otherwise it fails. A clean verify
#      log that checked nothing proves nothing, hence the count.
#    The verify run's stdout is not compared: verify keeps the unfolded result.
# 3. Times the seed's shapes (bf16 X[768,13824] * W[5120,13824]^T with W^T
#    made by a transpose kernel and by cublasLtMatrixTransform, and the bare
#    GEMM as the floor) with CUDA events: build/programs/seed_bench under
#    `transfold ab -n 5`, then once in log mode with its report.
# 4. Where PyTorch imports, runs torch.matmul(x, w.t().contiguous()) at the
#    seed's shapes under transfold in log mode, with PyTorch's caching
#    allocator and with backend:cudaMallocAsync, and reports what it saw.
# Options: --no-build skips step 1 (the tree is already built).
# Rehearsal without a GPU (how this script was tested): a fake nvidia-smi
# first on PATH that prints "GPU 0: ...", LD_LIBRARY_PATH=build/sim,
# SIMCUDA_KERNELS=build/programs/libtwins.so and
# GPU_CHECK_SEED_ARGS="--div 16 --iters 2" run every step on the stand-in.
# Prints a short table last. Exits 1 if there is no GPU, the build fails, or
# any comparison fails. Budget: under 8 minutes (each step has a timeout).
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TF=$ROOT/scripts/transfold
RUN_TIMEOUT=${GPU_CHECK_RUN_TIMEOUT:-60}
PROGRAMS_DEADLINE=300   # seconds since start after which no new case starts
# Extra seed_bench arguments, e.g. "--div 16" to rehearse this script on the
# CPU stand-in (with a fake nvidia-smi); empty on a GPU.
read -r -a SEED_ARGS <<<"${GPU_CHECK_SEED_ARGS:-}"
T=$(mktemp -d "${TMPDIR:-/tmp}/transfold-gpu-check.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
START=$(date +%s)
TABLE=()   # "what|result" rows of the final table
STATUS=0

say() { printf '\n== %s  (%ss)\n' "$*" "$(($(date +%s) - START))"; }
row() { TABLE+=("$1|$2"); }
failed() { STATUS=1; row "$1" "FAIL: $2"; }

# ----------------------------------------------------------------- GPU ----

require_gpu() {
  local why=""
  if ! command -v nvidia-smi >/dev/null 2>&1; then
    why="nvidia-smi is not installed"
  elif ! nvidia-smi -L >"$T/gpus" 2>&1; then
    why="nvidia-smi -L failed: $(head -n 1 "$T/gpus")"
  elif ! grep -q '^GPU ' "$T/gpus"; then
    why="nvidia-smi lists no GPU"
  fi
  if [ -n "$why" ]; then
    echo "gpu-check: no usable NVIDIA GPU here ($why)." >&2
    echo "gpu-check: this check needs a real GPU and driver; without one, use 'make test' and 'make demo' (CPU stand-in)." >&2
    exit 1
  fi
  echo "gpu-check: $(head -n 1 "$T/gpus")"
}

# --------------------------------------------------------------- build ----

build() {
  say "build"
  if timeout 300 make -C "$ROOT" -j"$(nproc)" all programs >"$T/build.log" 2>&1; then
    row "build" "ok"
  else
    tail -n 30 "$T/build.log"
    failed "build" "make failed (log above)"
    print_table
    exit 1
  fi
}

# ---------------------------------------------------- end-to-end programs ----

# Kernel rules shipped with the tests, so kernel transposes are recognised.
RULE_OPTS=()
for r in "$ROOT"/tests/e2e/rules/*.rules; do [ -f "$r" ] && RULE_OPTS+=(--rules "$r"); done

# The cases to run, one "program args..." a line: those of the end-to-end
# suite (its `run_all PROGRAM ARGS...` lines; programs it runs otherwise,
# like hooks, print what differs under the preload by design), and the demo.
# seed_bench is timed on its own below.
case_list() {
  local cases=("$ROOT"/tests/e2e/cases*.sh)
  [ -f "${cases[0]}" ] || echo "gpu-check: warning: no tests/e2e/cases*.sh, only the demo runs" >&2
  if [ -f "${cases[0]}" ]; then
    cat "${cases[@]}" | grep -oE '\brun_all [^;}]+' | sed -E 's/^run_all +//; s/"//g; s/ +$//' |
      sed "s#\\\$BUILD#$BUILD#g" | awk '!seen[$0]++'
  fi
  echo demo
}

# run_case DIR LABEL [transfold run options]: one run of $PROG $CASE_ARGS.
run_case() {
  local dir=$1 label=$2; shift 2
  (cd "$dir" && timeout "$RUN_TIMEOUT" "$TF" run "$@" -- "$PROG" "${CASE_ARGS[@]}" \
     >"$label.raw" 2>"$label.err")
  echo $? >"$dir/$label.rc"
  # A program's own timings differ from run to run by nature.
  grep -v '^transfold-ab: ' "$dir/$label.raw" >"$dir/$label.out"
}

# Same lines once hex words (hashes, element bits) are masked.
same_skeleton() {
  cmp -s <(sed -E 's/[0-9a-f]{8,}/#/g' "$1") <(sed -E 's/[0-9a-f]{8,}/#/g' "$2")
}

# "checked mismatched": verify events in a log, and how many were not equal.
verify_counts() {
  jq -R -n -r '[inputs | (try fromjson catch null) | select(type == "object" and .event == "verify")]
               | "\(length) \(map(select(.result != "equal")) | length)"' "$1"
}

# Folded GEMM calls in a log, at least: a call folding both operands logs
# two fold events.
folded_calls() {
  local n
  n=$(grep -c '"event":"fold"' "$1")
  echo $(((n + 1) / 2))
}

# Compares one case's runs; prints its verdict word.
judge_case() {
  local d=$1 checked bad
  read -r checked bad < <(verify_counts "$d/verify.log")
  if [ "$(cat "$d/base.rc")" != "$(cat "$d/fold.rc")" ]; then
    echo "status"
  elif [ "$bad" != 0 ]; then
    echo "verify"
  elif cmp -s "$d/base.out" "$d/fold.out"; then
    echo "equal"
  elif same_skeleton "$d/base.out" "$d/fold.out" && [ "$checked" -ge 1 ] &&
       [ "$checked" -ge "$(folded_calls "$d/verify.log")" ]; then
    echo "tolerance"
  else
    echo "differ"
  fi
}

programs() {
  say "end-to-end programs on the real driver"
  local n_equal=0 n_tol=0 n_fail=0 n_folds=0 n_late=0 line d verdict label
  while read -r -a line; do
    # Leave the seed and PyTorch their share of the 8 minutes.
    if [ $(($(date +%s) - START)) -ge "$PROGRAMS_DEADLINE" ]; then n_late=$((n_late + 1)); continue; fi
    PROG=$BUILD/programs/${line[0]}
    CASE_ARGS=("${line[@]:1}")
    label="${line[*]}"
    d=$T/cases/$(printf '%s' "$label" | tr -c 'A-Za-z0-9_.-' '_')
    mkdir -p "$d"
    run_case "$d" base --without
    run_case "$d" fold --mode fold --log "$d/fold.log" --summary none "${RULE_OPTS[@]}"
    run_case "$d" verify --mode fold --verify --log "$d/verify.log" --summary none "${RULE_OPTS[@]}"
    touch "$d/fold.log" "$d/verify.log"
    verdict=$(judge_case "$d")
    n_folds=$((n_folds + $(grep -c '"event":"fold"' "$d/fold.log")))
    case $verdict in
      equal) n_equal=$((n_equal + 1)) ;;
      tolerance) n_tol=$((n_tol + 1)); echo "  ~ $label: bytes differ in hex words only; verify checked every folded GEMM: within tolerance" ;;
      *)
        n_fail=$((n_fail + 1))
        echo "  FAIL $label: $verdict (exit $(cat "$d/base.rc") without, $(cat "$d/fold.rc") with)"
        diff -u --label without --label fold "$d/base.out" "$d/fold.out" | head -n 12 | sed 's/^/      /'
        grep -h 'MISMATCH' "$d/verify.err" "$d/verify.log" 2>/dev/null | head -n 3 | sed 's/^/      /'
        ;;
    esac
  done < <(case_list)
  local summary="$n_equal equal, $n_tol within tolerance, $n_fail failed; $n_folds operands folded"
  [ $n_late = 0 ] || summary+="; $n_late not run (time budget)"
  echo "  $summary"
  if [ $n_fail = 0 ] && [ $((n_equal + n_tol)) -gt 0 ]; then row "programs (without vs fold)" "$summary"
  else failed "programs (without vs fold)" "$summary"; fi
}

# ---------------------------------------------------------- seed timing ----

seed() {
  say "the seed's shapes, transfold ab -n 5"
  local bench=$BUILD/programs/seed_bench
  [ -x "$bench" ] || { failed "seed timing" "$bench missing"; return; }
  if timeout 240 "$TF" ab -n 5 "${RULE_OPTS[@]}" -- "$bench" "${SEED_ARGS[@]}" >"$T/seed.ab" 2>&1; then
    cat "$T/seed.ab"
    local v
    if timeout 60 "$TF" run --mode log --log "$T/seed.log" --summary none "${RULE_OPTS[@]}" -- \
         "$bench" "${SEED_ARGS[@]}" --iters 1 >/dev/null 2>"$T/seed.err"; then
      touch "$T/seed.log"
      echo "-- seed_bench in log mode:"
      "$TF" report "$T/seed.log" | sed 's/^/  /'
      row "seed, log mode" "$("$TF" report --json "$T/seed.log" | jq -r '.totals |
        "\(.transposes) transposes seen, \(.operands_folded) foldable operands, \(.refused) refused"')"
    else
      failed "seed, log mode" "seed_bench failed under transfold: $(tail -n 1 "$T/seed.err")"
    fi
    for v in kernel lt gemm; do
      row "seed $v: A ms, B ms, A/B" "$(awk -v m="seed_$v" '$1 == m { print $2 " " $4 " " $6 }' "$T/seed.ab")"
    done
  else
    cat "$T/seed.ab"
    failed "seed timing" "transfold ab failed (above)"
  fi
}

# -------------------------------------------------------------- PyTorch ----

torch_check() {
  say "PyTorch: torch.matmul(x, w.t().contiguous()) in log mode"
  if ! timeout 60 python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' >/dev/null 2>&1; then
    row "torch" "skipped (no PyTorch with CUDA)"
    return
  fi
  cat >"$T/seed.py" <<'EOF'
import torch
x = torch.randn(768, 13824, dtype=torch.bfloat16, device="cuda")
w = torch.randn(5120, 13824, dtype=torch.bfloat16, device="cuda")
for _ in range(3):
    y = torch.matmul(x, w.t().contiguous())
torch.cuda.synchronize()
print("torch: y", tuple(y.shape), y.dtype)
EOF
  local alloc label
  for alloc in "" "backend:cudaMallocAsync"; do
    label=${alloc:-caching allocator}
    if env -u PYTORCH_CUDA_ALLOC_CONF ${alloc:+"PYTORCH_CUDA_ALLOC_CONF=$alloc"} timeout 120 "$TF" run --mode log --log "$T/torch.log" --summary none \
         "${RULE_OPTS[@]}" -- python3 "$T/seed.py" >"$T/torch.out" 2>&1; then
      touch "$T/torch.log"
      echo "-- $label"
      "$TF" report "$T/torch.log" | sed 's/^/  /'
      row "torch ($label)" "$("$TF" report --json "$T/torch.log" | jq -r '.totals |
        "\(.transposes) transposes, \(.operands_folded) foldable operands, \(.refused) refused, \(.materialized) materialized"')"
    else
      tail -n 15 "$T/torch.out"
      failed "torch ($label)" "python3 failed under transfold"
    fi
    rm -f "$T/torch.log"
  done
}

# --------------------------------------------------------------- table ----

print_table() {
  echo
  echo "== gpu-check summary ($(($(date +%s) - START)) s)"
  local r
  for r in "${TABLE[@]}"; do
    printf '  %-32s %s\n' "${r%%|*}" "${r#*|}"
  done
  [ $STATUS = 0 ] && echo "  gpu-check: OK" || echo "  gpu-check: FAILED"
}

DO_BUILD=1
case ${1:-} in
  --no-build) DO_BUILD=0 ;;
  "") ;;
  *) echo "usage: gpu-check.sh [--no-build]" >&2; exit 2 ;;
esac
require_gpu
command -v jq >/dev/null || { echo "gpu-check: needs jq" >&2; exit 1; }
export TRANSFOLD_SIM=0 TRANSFOLD_BUILD=$BUILD
if [ $DO_BUILD = 1 ]; then build; else row "build" "skipped (--no-build)"; fi
programs
seed
torch_check
print_table
exit $STATUS
