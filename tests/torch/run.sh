#!/usr/bin/env bash
# The PyTorch suite (make test-torch): every tests/torch/prog_*.py runs
#   - on the CPU (TF_TORCH_DEVICE=cpu), the reference for its results;
#   - under `transfold run --without` (the stand-in or a GPU, no transfold);
#   - under transfold in each mode: --mode off, --mode log, fold (default),
#     --policy args, --learn, --verify, each with a JSON event log, and fold
#     again with SIMCUDA_ASYNC=1 SIMCUDA_RACE=abort (streams on threads, the
#     stand-in's race detector on);
# and passes when every run exits 0, every transfold run prints exactly what
# --without printed (hashes of the raw bytes of every result: bitwise equal),
# the --without results equal the CPU's (compare.py: copies exact,
# arithmetic within a tolerance per dtype), no --verify comparison reports a
# MISMATCH, --mode off logs nothing, and the event counts expected in
# tests/torch/expected-events hold. The twins' own checks
# (tests/torch/twins_*.py) run under --without and must exit 0.
#   usage: run.sh [NAME...]    (NAME: prog_seed, twins_copy, ...; default all)
# Ends with "N passed, M failed"; exits 1 when anything failed.
set -u
unset TRANSFOLD_MODE TRANSFOLD_LOG TRANSFOLD_RULES TRANSFOLD_POLICY TRANSFOLD_SUMMARY TRANSFOLD_VERIFY \
  TRANSFOLD_LEARN TRANSFOLD_LEARN_OUT TRANSFOLD_KERNELS SIMCUDA_KERNELS PYTORCH_CUDA_ALLOC_CONF

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
HERE=$ROOT/tests/torch
TF=$ROOT/scripts/transfold
PY=${TORCH_VENV:-$BUILD/torch-venv}/bin/python
EXPECTED=$HERE/expected-events
LIMIT=${TORCH_TEST_TIMEOUT:-300}   # seconds a run may take before it counts as hung
export TRANSFOLD_BUILD=$BUILD TRANSFOLD_SUMMARY=none PYTHONDONTWRITEBYTECODE=1

[ -x "$PY" ] || { echo "no PyTorch at $PY (make torch-env)"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/transfold-torch.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
PASS=0 FAIL=0
pass() { PASS=$((PASS + 1)); echo "ok   $1"; }
flunk() { # name [file whose tail explains]
  FAIL=$((FAIL + 1)); echo "FAIL $1"
  [ -z "${2:-}" ] || tail -n 25 "$2" | sed 's/^/     | /'
}

# The modes, each "label|options of transfold run". async: fold with the
# stand-in running each stream on its own thread and its race detector on
# (ignored on a GPU).
MODES=("off|--mode off" "log|--mode log" "fold|" "args|--policy args" "learn|--learn" "verify|--verify"
       "async|")

# run_one OUT ERR -- CMD...: CMD with a time limit, in the test folder.
run_one() {
  local out=$1 err=$2; shift 3
  (cd "$HERE" && timeout "$LIMIT" "$@") >"$out" 2>"$err"
}

# events LOG FILTER: how many events of LOG the jq FILTER selects.
events() { jq -s "[.[] | select($2)] | length" "$1" 2>/dev/null || echo "unreadable"; }

check_expected() { # prog label log
  local prog=$1 label=$2 log=$3 p l filter want got
  [ -f "$EXPECTED" ] || return 0
  while IFS='|' read -r p l filter want; do
    [ "$p" = "$prog" ] && [ "$l" = "$label" ] || continue
    got=$(events "$log" "$filter")
    if [ "$got" = "$want" ]; then pass "$prog $label: $want events where $filter"
    else echo "     wanted $want, got $got" >"$T/why"; flunk "$prog $label: $want events where $filter" "$T/why"; fi
  done < <(grep -v '^#' "$EXPECTED" | grep -v '^ *$')
}

run_prog() {
  local prog=$1 base=$T/$1 m label opts
  # The reference: the same program on the CPU, no stand-in, no transfold.
  if run_one "$base.cpu.out" "$base.cpu.err" -- env TF_TORCH_DEVICE=cpu TF_TORCH_OUT="$base.cpu.pt" "$PY" "$prog.py"
  then pass "$prog cpu"; else flunk "$prog cpu" "$base.cpu.err"; return; fi
  if run_one "$base.without.out" "$base.without.err" -- \
      env TF_TORCH_OUT="$base.without.pt" "$TF" run --without -- "$PY" "$prog.py"
  then pass "$prog --without"; else flunk "$prog --without" "$base.without.err"; return; fi
  if "$PY" "$HERE/compare.py" "$base.cpu.pt" "$base.without.pt" >"$base.cmp" 2>&1
  then pass "$prog: results equal the CPU's ($(tail -n 1 "$base.cmp" | sed 's/^compare: //'))"
  else flunk "$prog: results equal the CPU's" "$base.cmp"; fi
  for m in "${MODES[@]}"; do
    label=${m%%|*} opts=${m#*|}
    local sim_env=()
    [ "$label" = async ] && sim_env=(SIMCUDA_ASYNC=1 SIMCUDA_RACE=abort)
    # shellcheck disable=SC2086 # opts is a list of words
    if ! run_one "$base.$label.out" "$base.$label.err" -- \
        env "${sim_env[@]}" "$TF" run $opts --log "$base.$label.jsonl" -- "$PY" "$prog.py"; then
      flunk "$prog $label: exits 0" "$base.$label.err"; continue
    fi
    if cmp -s "$base.without.out" "$base.$label.out"; then
      pass "$prog $label: output bitwise equal to --without"
    else
      diff "$base.without.out" "$base.$label.out" >"$base.diff"
      flunk "$prog $label: output bitwise equal to --without" "$base.diff"
    fi
    local bad
    bad=$(events "$base.$label.jsonl" '.ev == "verify" and .result == "MISMATCH"')
    [ "$bad" = 0 ] && pass "$prog $label: no verify mismatch" || {
      grep MISMATCH "$base.$label.jsonl" >"$base.why"; flunk "$prog $label: no verify mismatch ($bad)" "$base.why"; }
    if [ "$label" = off ]; then
      [ ! -s "$base.off.jsonl" ] && pass "$prog off: nothing logged" || flunk "$prog off: nothing logged" "$base.off.jsonl"
    fi
    check_expected "$prog" "$label" "$base.$label.jsonl"
  done
}

run_twins() {
  local prog=$1 base=$T/$1
  if run_one "$base.out" "$base.err" -- "$TF" run --without -- "$PY" "$prog.py"
  then pass "$prog"; else cat "$base.out" >>"$base.err"; flunk "$prog" "$base.err"; fi
}

names=("$@")
if [ ${#names[@]} = 0 ]; then
  for f in "$HERE"/prog_*.py "$HERE"/twins_*.py; do [ -f "$f" ] && names+=("$(basename "$f" .py)"); done
fi
command -v jq >/dev/null || { echo "needs jq"; exit 1; }
for n in "${names[@]}"; do
  n=${n%.py}
  [ -f "$HERE/$n.py" ] || { flunk "$n: no $HERE/$n.py"; continue; }
  echo "== $n"
  case $n in twins_*) run_twins "$n" ;; *) run_prog "$n" ;; esac
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
