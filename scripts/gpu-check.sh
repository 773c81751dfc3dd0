#!/usr/bin/env bash
# gpu-check: transfold on a machine with a real NVIDIA GPU (make gpu-check).
#
# Parts, in this order (--only PART runs one of them alone, --only A,B those):
#   build      make all programs (skipped with --no-build).
#   seed-full  the seed's program at its full shapes in eager PyTorch
#              (tests/torch/gpu/seed_full.py: x bf16 [384,2,13824],
#              W bf16 [5120,13824], t = W.t().contiguous();
#              out = torch.matmul(x, t)), once under `transfold run
#              --without` and once under transfold (fold mode, logged):
#              median ms per step of each (CUDA events around each step),
#              transposing copies executed of those issued (with transfold:
#              issued - deferred + materialized, from its log; without: all),
#              and the outputs compared with rtol 2^-6, atol 2^-6*sqrt(K)
#              (a folded GEMM reads W with op T; real cuBLAS may pick another
#              kernel and summation order for it than for op N).
#   torch      the PyTorch suite (tests/torch/run.sh) in its GPU mode
#              (TORCH_TEST_GPU=1): every prog_* under every mode with the
#              wheel's own libraries, outputs equal to --without or within
#              compare.py's tolerance, verify clean, output folding held
#              against TRANSFOLD_OUTPUT_FOLD=0, event counts as notes.
#   programs   every case of the end-to-end suite (the `run_all` lines of
#              tests/e2e/cases*.sh) and the demo without transfold, folding,
#              and folding with verify: equal exit statuses and stdout (the
#              programs' inputs are small multiples of 0.5, so every sum is
#              exact in any order; bytes differing only in hex words pass
#              only when verify checked every folded GEMM with no MISMATCH).
#   seed       build/programs/seed_bench (the seed's shapes in CUDA C:
#              transpose kernel, cublasLtMatrixTransform, bare GEMM) under
#              `transfold ab -n 5`, then once in log mode with its report.
# Prints a table last; exits 1 if there is no GPU, the build fails, or any
# check fails. Parts skipped for lack of time are said, not failed.
#
# Options: --no-build, --only PART[,PART...].
# Environment:
#   GPU_CHECK_BUDGET=S   the whole run's time (default 510 s: the script fits
#                        a 600 s device call). Each part stops starting work
#                        past its share, leaving the later parts theirs.
#   GPU_CHECK_KEEP=DIR   keep logs and outputs in DIR (gpu-check.log: all
#                        that was printed), to bring back from the machine.
#   GPU_CHECK_SIM=1      a rehearsal on the CPU stand-in (how this script is
#                        tested without a GPU): TRANSFOLD_SIM=1, the e2e
#                        programs' kernel twins, shapes divided (seed_full
#                        --div 16: W [320,864], still the tiled copy;
#                        seed_bench --div 16), build/torch-venv, two
#                        torch programs, budget 1500 s.
#   GPU_CHECK_PY=PATH    the Python with PyTorch (default: the first of
#                        python3, /usr/bin/python3, /opt/*/.venv/bin/python3
#                        that imports torch; build/torch-venv under SIM).
#   GPU_CHECK_TORCH_PROGS="prog_a prog_b"  the torch part's programs.
#   GPU_CHECK_SEED_ARGS, GPU_CHECK_SEED_FULL_ARGS  extra arguments of
#                        seed_bench and of seed_full.py run.
# jq is needed; `make gpu-carry` puts one for a machine without it (and
# without a network) in build/gpu-carry, found there when PATH has none.
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TF=$ROOT/scripts/transfold
SIM=${GPU_CHECK_SIM:-0}
BUDGET=${GPU_CHECK_BUDGET:-$([ "$SIM" = 1 ] && echo 1500 || echo 510)}
RUN_TIMEOUT=${GPU_CHECK_RUN_TIMEOUT:-60}
START=$SECONDS
TABLE=()   # "what|result" rows of the final table
STATUS=0
PARTS=(build seed-full torch programs seed)

if [ -n "${GPU_CHECK_KEEP:-}" ]; then
  T=$(mkdir -p "$GPU_CHECK_KEEP" && cd "$GPU_CHECK_KEEP" && pwd) || exit 1
  exec > >(tee "$T/gpu-check.log") 2>&1
  TEE_PID=$!
  # The log is whole once this returns (a tar right after must not cut it).
  trap 'exec >&- 2>&-; wait "$TEE_PID" 2>/dev/null' EXIT
else
  T=$(mktemp -d "${TMPDIR:-/tmp}/transfold-gpu-check.XXXXXX") || exit 1
  trap 'rm -rf "$T"' EXIT
fi

elapsed() { echo $((SECONDS - START)); }
say() { printf '\n== %s  (%ss)\n' "$*" "$(elapsed)"; }
row() { TABLE+=("$1|$2"); }
failed() { STATUS=1; row "$1" "FAIL: $2"; }

# ------------------------------------------------------------- budget ----

# Each part gets the time left but what the parts after it reserve, at
# most its cap; when that is under 30 s, the time left (the parts after it
# then lose theirs: the earlier parts matter more), and with under 20 s
# left it is skipped. left() is what remains of the current part's share.
PART_END=0
reserve_after() { # part: seconds the parts after it keep for themselves
  [ -n "$ONLY" ] && { echo 0; return; }
  case $1 in
    build) echo 330 ;; seed-full) echo 180 ;; torch) echo 90 ;; programs) echo 45 ;; *) echo 0 ;;
  esac
}
begin_part() { # part cap: 0 when there is too little time for it
  local all=$((BUDGET - $(elapsed))) share
  share=$((all - $(reserve_after "$1")))
  [ "$share" -ge 30 ] || share=$all
  [ "$share" -le "$2" ] || share=$2
  if [ "$share" -lt 20 ]; then row "$1" "skipped (time budget: $(elapsed) of ${BUDGET} s used)"; return 1; fi
  PART_END=$((SECONDS + share))
}
left() { local l=$((PART_END - SECONDS)); [ "$l" -gt 1 ] && echo "$l" || echo 1; }
cap() { # min(N, left)
  local l
  l=$(left)
  if [ "$1" -lt "$l" ]; then echo "$1"; else echo "$l"; fi
}

# ---------------------------------------------------------- the machine ----

require_gpu() {
  if [ "$SIM" = 1 ]; then
    echo "gpu-check: GPU_CHECK_SIM=1: a rehearsal on the CPU stand-in (no GPU is used)"
    return
  fi
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
    echo "gpu-check: this check needs a real GPU and driver; without one, use 'make test' and 'make demo' (CPU stand-in), or rehearse it with GPU_CHECK_SIM=1." >&2
    exit 1
  fi
  echo "gpu-check: $(head -n 1 "$T/gpus")"
}

# The Python with PyTorch: GPU_CHECK_PY, else the first that imports torch.
find_python() {
  PY=${GPU_CHECK_PY:-}
  if [ -z "$PY" ] && [ "$SIM" = 1 ]; then PY=$BUILD/torch-venv/bin/python; fi
  if [ -z "$PY" ]; then
    local p
    for p in "$(command -v python3)" /usr/bin/python3 /usr/local/bin/python3 /opt/*/.venv/bin/python3 /opt/*/bin/python3; do
      [ -x "$p" ] && "$p" -c 'import torch' >/dev/null 2>&1 && { PY=$p; break; }
    done
  fi
  if [ -n "$PY" ] && TORCH_VERSION=$("$PY" -c 'import torch; print(torch.__version__)' 2>/dev/null | tail -n 1) &&
     [ -n "$TORCH_VERSION" ]; then
    echo "gpu-check: PyTorch $TORCH_VERSION at $PY"
  else
    echo "gpu-check: no Python that imports torch (set GPU_CHECK_PY); the PyTorch parts are skipped"
    PY=""
  fi
}

# jq: the machine's, else the one `make gpu-carry` brought.
find_jq() {
  command -v jq >/dev/null 2>&1 && return
  [ -x "$BUILD/gpu-carry/bin/jq" ] && PATH=$BUILD/gpu-carry/bin:$PATH
  command -v jq >/dev/null 2>&1 && { echo "gpu-check: jq from $BUILD/gpu-carry"; return; }
  echo "gpu-check: needs jq (make gpu-carry builds one to carry to a machine without it)" >&2
  exit 1
}

# The e2e programs link libcudart and libcublas dynamically; where the
# machine's loader does not find them (a toolkit outside ld.so.conf, only a
# wheel's copies), their folders join LD_LIBRARY_PATH.
cuda_libs() {
  local probe=$BUILD/programs/demo d add=""
  [ "$SIM" = 1 ] || [ ! -x "$probe" ] && return
  ldd "$probe" 2>/dev/null | grep -q 'not found' || return
  for d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/targets/x86_64-linux/lib \
           $([ -n "$PY" ] && "$PY" -c 'import nvidia, os; [print(os.path.join(p, q, "lib")) for p in nvidia.__path__ for q in os.listdir(p)]' 2>/dev/null); do
    compgen -G "$d/libcublas.so.*" >/dev/null || compgen -G "$d/libcudart.so.*" >/dev/null || continue
    add=${add:+$add:}$d
  done
  [ -z "$add" ] && return
  export LD_LIBRARY_PATH=$add${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "gpu-check: the CUDA libraries of the e2e programs from $add"
}

# ---------------------------------------------------------------- build ----

build() {
  say "build"
  begin_part build 330 || return
  local targets=(all programs)
  [ "$SIM" = 1 ] && targets+=(sim)
  if timeout "$(left)" make -C "$ROOT" -j"$(nproc)" "${targets[@]}" >"$T/build.log" 2>&1; then
    row "build" "ok"
  else
    tail -n 30 "$T/build.log"
    failed "build" "make failed (log above)"
    print_table
    exit 1
  fi
}

# ------------------------------------------------------------ seed-full ----

SEED_FULL=$ROOT/tests/torch/gpu/seed_full.py

# seed_full_run LABEL [transfold run options]: one run; stdout in LABEL.out.
seed_full_run() {
  local label=$1; shift
  local args=()
  read -r -a args <<<"${GPU_CHECK_SEED_FULL_ARGS:-$([ "$SIM" = 1 ] && echo '--div 16 --steps 3 --warmup 1')}"
  (cd "$T" && timeout "$(cap 150)" "$TF" run "$@" -- "$PY" "$SEED_FULL" run "${args[@]}" --out "$T/seed_full.$label.pt" \
     >"seed_full.$label.out" 2>"seed_full.$label.err")
}

seed_full_field() { # label: the median ms, or "?"
  awk '$1 == "transfold-ab:" && $2 == "seed_full_step" { print $3 }' "$T/seed_full.$1.out" | grep . || echo "?"
}

seed_full() {
  say "the seed at full shapes in PyTorch (tests/torch/gpu/seed_full.py)"
  begin_part seed-full 150 || return
  [ -n "$PY" ] || { row "seed-full" "skipped (no PyTorch)"; return; }
  local label ok=1
  for label in without with; do
    local opts=(--without)
    [ $label = with ] && opts=(--log "$T/seed_full.jsonl" --summary none)
    if seed_full_run "$label" "${opts[@]}"; then
      echo "-- $label transfold:"
      sed 's/^/  /' "$T/seed_full.$label.out"
      grep '^transfold' "$T/seed_full.$label.err" | sed 's/^/  stderr: /'
    else
      tail -n 15 "$T/seed_full.$label.err"
      failed "seed-full $label transfold" "seed_full.py failed or timed out (stderr above)"
      ok=0
    fi
  done
  [ $ok = 1 ] || return
  local issued k totals deferred mat executed cmp
  issued=$(awk '/transposing copies issued/ { print $NF }' "$T/seed_full.with.out")
  touch "$T/seed_full.jsonl"
  echo "-- transfold's report of the run with it:"
  "$TF" report "$T/seed_full.jsonl" | sed 's/^/  /' | head -n 40
  totals=$("$TF" report --json "$T/seed_full.jsonl" | jq -r '.totals | "\(.transposes) \(.materialized) \(.output_folds)"')
  read -r deferred mat _ <<<"$totals"
  # A deferred GEMM whose output is overwritten or freed unread never runs
  # (output folding): then the events around it timed less than the work.
  local dropped
  dropped=$(jq -s '[.[] | select(.event == "gemm_drop")] | length' "$T/seed_full.jsonl")
  # Deferred and never materialized: folded (or dropped) and never run.
  executed=$((issued - deferred + mat))
  row "seed-full without: ms/step, copies" "$(seed_full_field without) ms (median); $issued of $issued transposing copies run"
  row "seed-full with: ms/step, copies" "$(seed_full_field with) ms (median); $executed of $issued transposing copies run ($deferred deferred, $mat materialized)$([ "$dropped" = 0 ] || echo "; $dropped GEMMs never ran (output unread): timing excludes them")"
  k=$(awk '/^seed_full: x/ { gsub(/[][,]/, " "); print $5 }' "$T/seed_full.with.out")
  if cmp=$("$PY" "$SEED_FULL" compare "$T/seed_full.without.pt" "$T/seed_full.with.pt" --k "$k" 2>&1 | grep '^seed_full'); then
    row "seed-full outputs" "ok: ${cmp#seed_full compare: }"
  else
    failed "seed-full outputs" "${cmp#seed_full compare: }"
  fi
  echo "  $cmp"
  # 8 MB each at full shapes: not worth bringing back.
  rm -f "$T"/seed_full.*.pt
}

# ---------------------------------------------------------------- torch ----

torch_suite() {
  say "the PyTorch suite on the real driver (tests/torch/run.sh, GPU mode)"
  begin_part torch 240 || return
  [ -n "$PY" ] || { row "torch suite" "skipped (no PyTorch)"; return; }
  local progs=()
  read -r -a progs <<<"${GPU_CHECK_TORCH_PROGS:-$([ "$SIM" = 1 ] && echo 'prog_fold_seed prog_mlp_sgd')}"
  local keep=()
  [ -n "${GPU_CHECK_KEEP:-}" ] && keep=(TORCH_TEST_KEEP="$T/torch")
  # A program is 9 runs; none starts when fewer than 60 s (or half the
  # share, when that is less) are left.
  local margin=60 last deadline
  [ $(($(left) / 2)) -ge $margin ] || margin=$(($(left) / 2))
  deadline=$(($(left) - margin))
  env "${keep[@]}" TORCH_TEST_GPU=1 TORCH_TEST_PY="$PY" TORCH_TEST_DEADLINE=$deadline \
    TORCH_TEST_TIMEOUT="$(cap 90)" TORCH_TEST_JOBS="${TORCH_TEST_JOBS:-$(nproc)}" BUILD="$BUILD" \
    timeout "$(left)" bash "$ROOT/tests/torch/run.sh" "${progs[@]}" >"$T/torch.log" 2>&1
  local rc=$?
  # The whole log is long: what failed, the notes that differ from the
  # stand-in, and the totals.
  grep -A 8 '^FAIL' "$T/torch.log" | head -n 60
  grep '^note .*stand-in gives' "$T/torch.log" | head -n 20
  grep '^GPU mode\|^not started\|notes (event\|passed, ' "$T/torch.log"
  last=$(grep 'passed, .* failed' "$T/torch.log" | tail -n 1)
  [ -n "$last" ] || last="no result (exit $rc): $(tail -n 1 "$T/torch.log")"
  local within
  within=$(grep -c '^ok .*within tolerance' "$T/torch.log")
  if [ "$rc" = 0 ]; then row "torch suite (GPU mode)" "$last; $within within tolerance, not bitwise"
  else failed "torch suite (GPU mode)" "$last"; fi
}

# ------------------------------------------------------------- programs ----

# Kernel rules shipped with the tests, so kernel transposes are recognised.
RULE_OPTS=()
for r in "$ROOT"/tests/e2e/rules/*.rules; do [ -f "$r" ] && RULE_OPTS+=(--rules "$r"); done

# The cases to run, one "program args..." a line: those of the end-to-end
# suite (its `run_all PROGRAM ARGS...` lines; programs it runs otherwise,
# like hooks, print what differs under the preload by design), and the demo.
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
  (cd "$dir" && timeout "$(cap "$RUN_TIMEOUT")" "$TF" run "$@" -- "$PROG" "${CASE_ARGS[@]}" \
     >"$label.raw" 2>"$label.err")
  echo $? >"$dir/$label.rc"
  # A program's own timings differ from run to run by nature.
  grep -v '^transfold-ab: ' "$dir/$label.raw" >"$dir/$label.out"
}

# Same lines once hex words (hashes, element bits) are masked.
same_skeleton() {
  cmp -s <(sed -E 's/[0-9a-f]{8,}/#/g' "$1") <(sed -E 's/[0-9a-f]{8,}/#/g' "$2")
}

# "checked mismatched": verify comparisons made in a log (a skip, e.g. inside
# a stream capture, compares nothing), and how many found a MISMATCH.
verify_counts() {
  jq -R -n -r '[inputs | (try fromjson catch null) | select(type == "object" and .event == "verify")]
               | "\(map(select(.result != "skipped")) | length) \(map(select(.result == "MISMATCH")) | length)"' "$1"
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
  begin_part programs 120 || return
  local n_equal=0 n_tol=0 n_fail=0 n_folds=0 n_late=0 line d verdict label
  cuda_libs
  while read -r -a line; do
    # Three runs of RUN_TIMEOUT at most must fit what is left.
    if [ "$(left)" -le 5 ]; then n_late=$((n_late + 1)); continue; fi
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
  if [ $n_fail = 0 ] && [ $((n_equal + n_tol)) -gt 0 ]; then row "e2e programs (without vs fold)" "$summary"
  else failed "e2e programs (without vs fold)" "$summary"; fi
}

# ----------------------------------------------------------------- seed ----

seed() {
  say "the seed's shapes in CUDA C, transfold ab -n 5"
  begin_part seed 90 || return
  local bench=$BUILD/programs/seed_bench args=()
  read -r -a args <<<"${GPU_CHECK_SEED_ARGS:-$([ "$SIM" = 1 ] && echo '--div 16 --iters 2')}"
  [ -x "$bench" ] || { failed "seed timing" "$bench missing"; return; }
  cuda_libs
  # Output folding off: it defers a GEMM until its output is read, and
  # seed_bench's bare GEMM overwrites its output unread every iteration, so
  # all but the last never run and the events around them time nothing.
  if TRANSFOLD_OUTPUT_FOLD=0 timeout "$(left)" "$TF" ab -n 5 "${RULE_OPTS[@]}" -- "$bench" "${args[@]}" >"$T/seed.ab" 2>&1; then
    cat "$T/seed.ab"
    local v
    if timeout "$(cap 60)" "$TF" run --mode log --log "$T/seed.log" --summary none "${RULE_OPTS[@]}" -- \
         "$bench" "${args[@]}" --iters 1 >/dev/null 2>"$T/seed.err"; then
      touch "$T/seed.log"
      echo "-- seed_bench in log mode:"
      "$TF" report "$T/seed.log" | sed 's/^/  /'
      row "seed_bench (timed with output folding off)" "log mode: $("$TF" report --json "$T/seed.log" | jq -r '.totals |
        "\(.transposes) transposes seen, \(.operands_folded) foldable operands, \(.refused) refused"')"
    else
      failed "seed_bench, log mode" "seed_bench failed under transfold: $(tail -n 1 "$T/seed.err")"
    fi
    for v in kernel lt gemm; do
      row "seed_bench $v: ms without, with, ratio" "$(awk -v m="seed_$v" '$1 == m { print $2 " " $4 " " $6 }' "$T/seed.ab")"
    done
  else
    cat "$T/seed.ab"
    failed "seed timing" "transfold ab failed or ran out of time (above)"
  fi
}

# ---------------------------------------------------------------- table ----

print_table() {
  echo
  echo "== gpu-check summary ($(elapsed) s of a ${BUDGET} s budget$([ "$SIM" = 1 ] && echo '; rehearsal on the CPU stand-in'))"
  local r
  for r in "${TABLE[@]}"; do
    printf "  %-44s %s\n" "${r%%|*}" "${r#*|}"
  done
  [ -z "${GPU_CHECK_KEEP:-}" ] || echo "  logs and outputs kept in $T"
  [ $STATUS = 0 ] && echo "  gpu-check: OK" || echo "  gpu-check: FAILED"
}

usage() { echo "usage: gpu-check.sh [--no-build] [--only PART[,PART...]]  (PART: ${PARTS[*]})" >&2; exit 2; }
DO_BUILD=1 ONLY=""
while [ $# -gt 0 ]; do
  case $1 in
    --no-build) DO_BUILD=0; shift ;;
    --only) [ $# -ge 2 ] || usage; ONLY=$2; shift 2
            for p in ${ONLY//,/ }; do [[ " ${PARTS[*]} " == *" $p "* ]] || usage; done ;;
    *) usage ;;
  esac
done
want() { [ -z "$ONLY" ] || [[ ",$ONLY," == *",$1,"* ]]; }

require_gpu
find_jq
export TRANSFOLD_SIM=$SIM TRANSFOLD_BUILD=$BUILD
if [ "$SIM" = 1 ]; then
  # The e2e programs' own kernels run on the stand-in through their twins.
  export SIMCUDA_KERNELS=$BUILD/programs/libtwins.so${SIMCUDA_KERNELS:+:$SIMCUDA_KERNELS}
fi
if want build; then
  if [ $DO_BUILD = 1 ]; then build; else row "build" "skipped (--no-build)"; fi
fi
PY=""
if want seed-full || want torch; then find_python; fi
want seed-full && seed_full
want torch && torch_suite
want programs && programs
want seed && seed
print_table
exit $STATUS
