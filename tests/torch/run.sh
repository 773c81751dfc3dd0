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
# (tests/torch/twins_*.py) run under --without (through launch.py) and must
# exit 0.
#   usage: run.sh [NAME...]    (NAME: prog_seed, twins_copy, ...; default all)
# Ends with "N passed, M failed" (", K skipped" past the deadline); exits 1
# when anything failed.
#
# Environment:
#   TORCH_TEST_PY=python3   the interpreter (a command or a path; default
#                           TORCH_VENV's, build/torch-venv)
#   TORCH_TEST_GPU=1        GPU mode, for a real GPU with the wheel's own
#                           libraries (scripts/gpu-check.sh): nothing of the
#                           stand-in is preloaded (TRANSFOLD_SIM=0 unless set;
#                           TRANSFOLD_SIM=1 rehearses this mode on the
#                           stand-in). A GPU may pick another cuBLAS kernel
#                           for a folded GEMM (op T) than for the one called
#                           (op N), so a run whose output is not bitwise equal
#                           to --without's passes when its results are within
#                           compare.py's tolerance of --without's, and says
#                           so; the async run (the stand-in's threads) is
#                           left out; an "outfold0" run (TRANSFOLD_OUTPUT_FOLD=0)
#                           is added and the fold run's results are held
#                           against it too (what output folding alone
#                           changes); expected-events counts are printed as
#                           "note" lines, not checked (another torch or real
#                           cuBLAS may emit other kernels and calls); by
#                           default only the prog_* programs run (the twins
#                           check the stand-in's kernels).
#   TORCH_TEST_DEADLINE=S   start no program S seconds after the start; the
#                           ones not started are named and counted skipped
#   TORCH_TEST_KEEP=DIR     keep every output and log in DIR
#   TORCH_TEST_TIMEOUT=S    a run's time limit (default 300)
#   TORCH_TEST_JOBS=N       programs at a time (default: the CPUs)
set -u
unset TRANSFOLD_MODE TRANSFOLD_LOG TRANSFOLD_RULES TRANSFOLD_POLICY TRANSFOLD_SUMMARY TRANSFOLD_VERIFY \
  TRANSFOLD_LEARN TRANSFOLD_LEARN_OUT TRANSFOLD_KERNELS SIMCUDA_KERNELS PYTORCH_CUDA_ALLOC_CONF

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
HERE=$ROOT/tests/torch
TF=$ROOT/scripts/transfold
PY=${TORCH_TEST_PY:-${TORCH_VENV:-$BUILD/torch-venv}/bin/python}
case $PY in */*) ;; *) PY=$(command -v "$PY") || { echo "no $TORCH_TEST_PY on PATH"; exit 1; } ;; esac
EXPECTED=$HERE/expected-events
LIMIT=${TORCH_TEST_TIMEOUT:-300}   # seconds a run may take before it counts as hung
GPU=${TORCH_TEST_GPU:-0}
START=$SECONDS
export TRANSFOLD_BUILD=$BUILD TRANSFOLD_SUMMARY=none PYTHONDONTWRITEBYTECODE=1
[ "$GPU" = 1 ] && export TRANSFOLD_SIM=${TRANSFOLD_SIM:-0}

[ -x "$PY" ] || { echo "no PyTorch at $PY (make torch-env)"; exit 1; }
if [ -n "${TORCH_TEST_KEEP:-}" ]; then
  T=$TORCH_TEST_KEEP
  mkdir -p "$T" || exit 1
else
  T=$(mktemp -d "${TMPDIR:-/tmp}/transfold-torch.XXXXXX") || exit 1
  trap 'rm -rf "$T"' EXIT
fi
# Check lines go to stdout; they are counted at the end (programs run in
# parallel, each printing into its own file).
pass() { echo "ok   $1"; }
flunk() { # name [file whose tail explains]
  echo "FAIL $1"
  [ -z "${2:-}" ] || grep -v 'Failed to initialize NumPy\|_conversion_method_template' "$2" | tail -n 25 | sed 's/^/     | /'
}

# The modes, each "label|options of transfold run". async: fold with the
# stand-in running each stream on its own thread and its race detector on
# (ignored on a GPU).
MODES=("off|--mode off" "log|--mode log" "fold|" "args|--policy args" "learn|--learn" "verify|--verify"
       "async|")
# On a GPU: no async (nothing of the stand-in runs), and output folding off
# for comparison with fold.
[ "$GPU" = 1 ] && MODES=("${MODES[@]:0:6}" "outfold0|")

# run_one OUT ERR -- CMD...: CMD with a time limit, in the test folder.
# PyTorch (2.15, CPython 3.11) may abort at exit after a backward pass: the
# autograd device thread drops its last GraphTask while the interpreter
# finalizes, takes the GIL, is made to pthread_exit through a noexcept
# frame, and libstdc++ terminates ("terminate called without an active
# exception"; nothing of transfold or the stand-in on that stack). Such a
# run is run once more, and the retry is said in the check output.
run_one() {
  local out=$1 err=$2 rc; shift 3
  (cd "$HERE" && timeout "$LIMIT" "$@") >"$out" 2>"$err"
  rc=$?
  if [ "$rc" = 134 ] && grep -q 'terminate called without an active exception' "$err"; then
    echo "     (retried: PyTorch's abort at exit, $(basename "$out"))"
    (cd "$HERE" && timeout "$LIMIT" "$@") >"$out" 2>"$err"
    rc=$?
  fi
  return "$rc"
}

# events LOG FILTER: how many events of LOG the jq FILTER selects.
events() { jq -s "[.[] | select($2)] | length" "$1" 2>/dev/null || echo "unreadable"; }

check_expected() { # prog label log
  local prog=$1 label=$2 log=$3 p l filter want got
  [ -f "$EXPECTED" ] || return 0
  while IFS='|' read -r p l filter want; do
    if [ "$p" != "$prog" ] || [ "$l" != "$label" ]; then continue; fi
    got=$(events "$log" "$filter")
    if [ "$GPU" = 1 ]; then { [ "$got" = "$want" ] && echo "note $prog $label: $got events where $filter, as on the stand-in" || echo "note $prog $label: $got events where $filter (the stand-in gives $want)"; }
    elif [ "$got" = "$want" ]; then pass "$prog $label: $want events where $filter"
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
    [ "$label" = outfold0 ] && sim_env=(TRANSFOLD_OUTPUT_FOLD=0)
    # shellcheck disable=SC2086 # opts is a list of words
    if ! run_one "$base.$label.out" "$base.$label.err" -- \
        env "${sim_env[@]}" TF_TORCH_OUT="$base.$label.pt" "$TF" run $opts --log "$base.$label.jsonl" -- "$PY" "$prog.py"; then
      flunk "$prog $label: exits 0" "$base.$label.err"; continue
    fi
    same_as "$prog" "$label" without
    local bad
    bad=$(events "$base.$label.jsonl" '.event == "verify" and .result == "MISMATCH"')
    if [ "$bad" = 0 ]; then pass "$prog $label: no verify mismatch"
    else grep MISMATCH "$base.$label.jsonl" >"$base.why"; flunk "$prog $label: no verify mismatch ($bad)" "$base.why"; fi
    if [ "$label" = off ]; then
      if [ ! -s "$base.off.jsonl" ]; then pass "$prog off: nothing logged"
      else flunk "$prog off: nothing logged" "$base.off.jsonl"; fi
    fi
    check_expected "$prog" "$label" "$base.$label.jsonl"
  done
  # What output folding alone changes on a GPU.
  if [ "$GPU" = 1 ] && [ -s "$base.fold.pt" ] && [ -s "$base.outfold0.pt" ]; then
    same_as "$prog" fold outfold0
  fi
}

# same_as PROG LABEL REF: LABEL's output equals REF's bit for bit; on a GPU
# (see the head), or else its results within compare.py's tolerance of REF's.
same_as() {
  local prog=$1 label=$2 ref=$3 base=$T/$1 rname=$3
  [ "$ref" = without ] && rname=--without
  if cmp -s "$base.$ref.out" "$base.$label.out"; then
    if [ "$ref" = without ]; then pass "$prog $label: output bitwise equal to --without"
    else pass "$prog $label: output bitwise equal to $rname's"; fi
    return
  fi
  diff "$base.$ref.out" "$base.$label.out" >"$base.$label.diff"
  if [ "$GPU" != 1 ]; then flunk "$prog $label: output bitwise equal to $rname" "$base.$label.diff"; return; fi
  if "$PY" "$HERE/compare.py" --ref "$rname" "$base.$ref.pt" "$base.$label.pt" >"$base.$label.cmp" 2>&1; then
    pass "$prog $label: output within tolerance of $rname's, not bitwise equal ($(grep -c '^>' "$base.$label.diff") of $(tail -n 1 "$base.$label.cmp" | sed 's/^compare: //; s/,.*//') differ in bytes)"
  else
    cat "$base.$label.diff" >>"$base.$label.cmp"
    flunk "$prog $label: output within tolerance of $rname's" "$base.$label.cmp"
  fi
}

run_twins() {
  local prog=$1 base=$T/$1
  # launch.py: no interpreter finalization, so no at-exit abort (see there)
  if run_one "$base.out" "$base.err" -- "$TF" run --without -- "$PY" launch.py "$prog.py"
  then pass "$prog"; else cat "$base.out" >>"$base.err"; flunk "$prog" "$base.err"; fi
}

names=("$@")
if [ ${#names[@]} = 0 ]; then
  globs=("$HERE"/prog_*.py "$HERE"/twins_*.py)
  [ "$GPU" = 1 ] && globs=("$HERE"/prog_*.py)
  for f in "${globs[@]}"; do [ -f "$f" ] && names+=("$(basename "$f" .py)"); done
fi
[ "$GPU" = 1 ] && echo "GPU mode: $("$PY" -c 'import torch; print("torch", torch.__version__)' 2>/dev/null | tail -n 1) at $PY, TRANSFOLD_SIM=$TRANSFOLD_SIM"
command -v jq >/dev/null || { echo "needs jq"; exit 1; }
# Programs run TORCH_TEST_JOBS at a time (default: the number of CPUs);
# their check lines are printed in order once each is done.
JOBS=${TORCH_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
one() {
  local n=$1
  echo "== $n"
  [ -f "$HERE/$n.py" ] || { flunk "$n: no $HERE/$n.py"; return; }
  case $n in twins_*) run_twins "$n" ;; *) run_prog "$n" ;; esac
}
skipped=()
for n in "${names[@]}"; do
  n=${n%.py}
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  # Past the deadline nothing new starts (a caller's time budget).
  if [ -n "${TORCH_TEST_DEADLINE:-}" ] && [ $((SECONDS - START)) -ge "$TORCH_TEST_DEADLINE" ]; then
    skipped+=("$n"); : >"$T/$n.checks"; continue
  fi
  one "$n" >"$T/$n.checks" 2>&1 &
done
wait
for n in "${names[@]}"; do cat "$T/${n%.py}.checks"; done | tee "$T/all.checks"
PASS=$(grep -c '^ok ' "$T/all.checks") FAIL=$(grep -c '^FAIL ' "$T/all.checks")
NOTES=$(grep -c '^note ' "$T/all.checks")
[ "$NOTES" = 0 ] || echo "$NOTES notes (event counts on a GPU: not checked)"
if [ ${#skipped[@]} = 0 ]; then
  echo "$PASS passed, $FAIL failed"
else
  echo "not started (TORCH_TEST_DEADLINE=${TORCH_TEST_DEADLINE}s passed): ${skipped[*]}"
  echo "$PASS passed, $FAIL failed, ${#skipped[@]} skipped"
fi
[ "$FAIL" = 0 ]
