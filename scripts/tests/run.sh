#!/usr/bin/env bash
# Tests of the transfold command (make script-tests, part of make test).
#
# The command's own logic (options, environment, exit status, report, ab)
# is tested with a stand-in preload library (an empty .so) and a tiny
# program, so it does not depend on the library's progress; the last group
# runs the real library on the stand-in of CUDA with the demo program.
# Ends with "N passed, M failed"; exits 1 when anything failed.
set -u
# The user's own settings must not leak into what is tested.
unset TRANSFOLD_MODE TRANSFOLD_LOG TRANSFOLD_RULES TRANSFOLD_POLICY TRANSFOLD_SUMMARY TRANSFOLD_VERIFY \
  TRANSFOLD_LEARN TRANSFOLD_LEARN_OUT \
  TRANSFOLD_SIM TRANSFOLD_SO TRANSFOLD_SIMDIR TRANSFOLD_BUILD TRANSFOLD_KERNELS SIMCUDA_KERNELS LD_PRELOAD

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TF=$ROOT/scripts/transfold
HERE=$ROOT/scripts/tests
PROBE=$BUILD/scripts-tests/envprobe
SAMPLE=$HERE/sample-log.jsonl   # hand-written; its last line is cut short on purpose

T=$(mktemp -d "${TMPDIR:-/tmp}/transfold-tests.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
PASS=0 FAIL=0

pass() { PASS=$((PASS + 1)); echo "ok   $1"; }
flunk() { # name [file whose head explains]
  FAIL=$((FAIL + 1)); echo "FAIL $1"
  [ -z "${2:-}" ] || head -n 30 "$2" | sed 's/^/     | /'
}

# expect NAME STATUS REGEX -- CMD...: CMD must exit with STATUS and print
# (stdout and stderr together) a line matching the extended REGEX.
expect() {
  local name=$1 want=$2 pat=$3 rc; shift 4
  "$@" >"$T/out" 2>&1
  rc=$?
  if [ "$rc" = "$want" ] && { [ -z "$pat" ] || grep -qE -- "$pat" "$T/out"; }; then
    pass "$name"
  else
    echo "     exit $rc (wanted $want), output should match: $pat" >>"$T/out"
    flunk "$name" "$T/out"
  fi
}

# jq_true NAME FILTER FILE: the jq FILTER must be true on FILE.
jq_true() {
  if jq -e "$2" "$3" >"$T/jq" 2>&1; then pass "$1"; else flunk "$1" "$T/jq"; fi
}

[ -x "$PROBE" ] || cc -O2 -o "$PROBE" "$HERE/envprobe.c" || { echo "cannot build $PROBE"; exit 1; }
cc -shared -fPIC -o "$T/fake-transfold.so" -x c /dev/null || { echo "cannot build a stand-in .so"; exit 1; }
mkdir -p "$T/fake-sim" && : >"$T/fake-sim/libcudart.so.13"

echo "== syntax"
for s in transfold demo.sh gpu-check.sh gpu-carry.sh tests/run.sh; do
  expect "bash -n $s" 0 '' -- bash -n "$ROOT/scripts/$s"
done
if command -v shellcheck >/dev/null; then
  expect "shellcheck" 0 '' -- shellcheck "$TF" "$ROOT/scripts/demo.sh" "$ROOT/scripts/gpu-check.sh" "$ROOT/scripts/gpu-carry.sh" "$HERE/run.sh"
fi

echo "== help and usage errors"
for sub in run learn report ab; do
  expect "$sub --help" 0 "usage: transfold $sub" -- "$TF" "$sub" --help
done
expect "no subcommand" 2 'usage: transfold COMMAND' -- "$TF"
expect "unknown subcommand" 2 "unknown command 'frob'" -- "$TF" frob
expect "run: bad mode" 2 "--mode must be fold, log or off, not 'fast'" -- "$TF" run --mode fast -- true
expect "run: bad policy" 2 "--policy must be strict or args" -- "$TF" run --policy lax -- true
expect "run: bad scales" 2 "--scales must be exact or pow2, not 'all'" -- "$TF" run --scales all -- true
expect "run: unknown option" 2 "unknown option '--bogus'" -- "$TF" run --bogus -- true
expect "run: no command" 2 'no command given' -- "$TF" run --mode log
expect "run: missing value" 2 '--log needs a value' -- "$TF" run --log
expect "run: log folder missing" 2 'folder /nonexistent does not exist' -- "$TF" run --log /nonexistent/x.jsonl -- true
expect "run: rules file missing" 2 '--rules /nonexistent.rules: no such readable file' -- "$TF" run --rules /nonexistent.rules -- true
expect "run: command not found" 127 'no-such-command: command not found' -- "$TF" run -- no-such-command
expect "ab: bad -n" 2 "-n must be a positive integer, not 'x'" -- "$TF" ab -n x -- true
expect "learn: no -o" 2 '-o FILE is required' -- "$TF" learn -- true
expect "learn: -o folder missing" 2 'folder /nonexistent does not exist' -- "$TF" learn -o /nonexistent/x.rules -- true
expect "report: no file" 2 'no log file given' -- "$TF" report
expect "report: bad bandwidth" 2 '--bandwidth must be a positive number' -- "$TF" report --bandwidth -3 "$SAMPLE"
expect "report: unreadable file" 1 '/nonexistent.jsonl: no such readable file' -- "$TF" report /nonexistent.jsonl

echo "== run: environment and exit status"
export TRANSFOLD_SO=$T/fake-transfold.so TRANSFOLD_SIMDIR=$T/fake-sim
expect "run: exit status propagates" 7 '' -- env TRANSFOLD_SIM=0 "$TF" run -- sh -c 'exit 7'
expect "run: preloads the library" 0 "^LD_PRELOAD=$T/fake-transfold.so\$" -- env TRANSFOLD_SIM=0 "$TF" run -- env
expect "run: keeps an existing LD_PRELOAD" 0 "^LD_PRELOAD=$T/fake-transfold.so:libother.so\$" -- \
  env TRANSFOLD_SIM=0 LD_PRELOAD=libother.so "$TF" run -- env
env TRANSFOLD_SIM=0 "$TF" run --mode log --log "$T/x.jsonl" --policy args --summary none --verify \
  --scales pow2 --rules "$SAMPLE" -- env >"$T/env" 2>&1
for kv in TRANSFOLD_MODE=log "TRANSFOLD_LOG=$T/x.jsonl" TRANSFOLD_POLICY=args TRANSFOLD_SUMMARY=none \
  TRANSFOLD_VERIFY=1 TRANSFOLD_SCALES=pow2 "TRANSFOLD_RULES=$SAMPLE"; do
  if grep -qxF -- "$kv" "$T/env"; then pass "run: sets $kv"; else flunk "run: sets $kv" "$T/env"; fi
done
expect "run: --learn sets TRANSFOLD_LEARN=1" 0 '^TRANSFOLD_LEARN=1$' -- env TRANSFOLD_SIM=0 "$TF" run --learn -- env
expect "learn: sets TRANSFOLD_LEARN_OUT" 0 "^TRANSFOLD_LEARN_OUT=$T/l.rules\$" -- env TRANSFOLD_SIM=0 "$TF" learn -o "$T/l.rules" -- env
expect "run: default mode left to the library" 1 '' -- sh -c "TRANSFOLD_SIM=0 '$TF' run -- env | grep -q '^TRANSFOLD_MODE='"
expect "run: stand-in first on LD_LIBRARY_PATH" 0 "^LD_LIBRARY_PATH=$T/fake-sim:/keep\$" -- \
  env TRANSFOLD_SIM=1 LD_LIBRARY_PATH=/keep "$TF" run -- env
expect "run: real CUDA leaves LD_LIBRARY_PATH" 0 '^LD_LIBRARY_PATH=/keep$' -- \
  env TRANSFOLD_SIM=0 LD_LIBRARY_PATH=/keep "$TF" run -- env
expect "run: --kernels joins SIMCUDA_KERNELS" 0 "^SIMCUDA_KERNELS=/old.so:$SAMPLE\$" -- \
  env TRANSFOLD_SIM=1 SIMCUDA_KERNELS=/old.so "$TF" run --kernels "$SAMPLE" -- env
# PyTorch on the stand-in: its cuBLAS libraries are preloaded (after
# transfold, before the caller's), its ATen twins join SIMCUDA_KERNELS once.
mkdir -p "$T/torch-sim"
for f in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libsimcuda_aten.so; do : >"$T/torch-sim/$f"; done
expect "run: stand-in cuBLAS preloaded" 0 \
  "^LD_PRELOAD=$T/fake-transfold.so:$T/torch-sim/libcublas.so.13:$T/torch-sim/libcublasLt.so.13:libother.so\$" -- \
  env TRANSFOLD_SIM=1 TRANSFOLD_SIMDIR="$T/torch-sim" LD_PRELOAD=libother.so "$TF" run -- env
expect "run: --without preloads only the stand-in's cuBLAS" 0 \
  "^LD_PRELOAD=$T/torch-sim/libcublas.so.13:$T/torch-sim/libcublasLt.so.13\$" -- \
  env TRANSFOLD_SIM=1 TRANSFOLD_SIMDIR="$T/torch-sim" "$TF" run --without -- env
expect "run: ATen twins join SIMCUDA_KERNELS" 0 "^SIMCUDA_KERNELS=/old.so:$SAMPLE:$T/torch-sim/libsimcuda_aten.so\$" -- \
  env TRANSFOLD_SIM=1 TRANSFOLD_SIMDIR="$T/torch-sim" SIMCUDA_KERNELS=/old.so "$TF" run --kernels "$SAMPLE" -- env
expect "run: ATen twins not listed twice" 0 "^SIMCUDA_KERNELS=$T/torch-sim/libsimcuda_aten.so\$" -- \
  env TRANSFOLD_SIM=1 TRANSFOLD_SIMDIR="$T/torch-sim" SIMCUDA_KERNELS="$T/torch-sim/libsimcuda_aten.so" "$TF" run -- env
expect "run: real CUDA preloads no stand-in" 0 "^LD_PRELOAD=$T/fake-transfold.so\$" -- \
  env TRANSFOLD_SIM=0 TRANSFOLD_SIMDIR="$T/torch-sim" "$TF" run -- env
expect "run: --without does not preload" 1 '' -- sh -c "TRANSFOLD_SIM=0 '$TF' run --without -- env | grep -q '^LD_PRELOAD='"
echo stale >"$T/stale.jsonl"
env TRANSFOLD_SIM=0 "$TF" run --log "$T/stale.jsonl" -- true
if [ ! -s "$T/stale.jsonl" ]; then pass "run: --log starts an empty log"; else flunk "run: --log starts an empty log" "$T/stale.jsonl"; fi
expect "run: bad TRANSFOLD_SIM" 1 'TRANSFOLD_SIM must be 0 or 1' -- env TRANSFOLD_SIM=yes "$TF" run -- true
expect "run: missing stand-in named" 1 'no CPU stand-in at /nonexistent' -- \
  env TRANSFOLD_SIM=1 TRANSFOLD_SIMDIR=/nonexistent "$TF" run -- true
expect "run: missing library named" 1 'libtransfold.so not found at /nonexistent.so' -- \
  env TRANSFOLD_SIM=0 TRANSFOLD_SO=/nonexistent.so "$TF" run -- true

# The installed layout: PREFIX/bin/transfold finds PREFIX/lib/libtransfold.so
# and PREFIX/lib/transfold/sim without any override.
mkdir -p "$T/prefix/bin" "$T/prefix/lib/transfold/sim"
cp "$TF" "$T/prefix/bin/transfold"
cp "$T/fake-transfold.so" "$T/prefix/lib/libtransfold.so"
: >"$T/prefix/lib/transfold/sim/libcudart.so.13"
expect "installed layout: library" 0 "^LD_PRELOAD=$T/prefix/lib/libtransfold.so\$" -- \
  env -u TRANSFOLD_SO -u TRANSFOLD_SIMDIR TRANSFOLD_SIM=1 "$T/prefix/bin/transfold" run -- env
expect "installed layout: stand-in" 0 "^LD_LIBRARY_PATH=$T/prefix/lib/transfold/sim\$" -- \
  env -u TRANSFOLD_SO -u TRANSFOLD_SIMDIR -u LD_LIBRARY_PATH TRANSFOLD_SIM=1 "$T/prefix/bin/transfold" run -- env

echo "== report"
expect "report: text" 0 '^Refusals \(3\):' -- "$TF" report "$SAMPLE"
"$TF" report "$SAMPLE" >"$T/report.txt" 2>&1
for reason in "device pointer mode" "scale 0.3+0i is not 1" "leading dimension 128 != transpose's 64" \
  "destination read by cudaMemcpy" "unknown access by cudaLaunchKernel" "process exit: destination never freed"; do
  if grep -qF -- "$reason" "$T/report.txt"; then pass "report names: $reason"; else flunk "report names: $reason" "$T/report.txt"; fi
done
hints=$(grep -c 'HINT:' "$T/report.txt")
if [ "$hints" -ge 8 ]; then pass "report: a hint per refusal and materialization"; else flunk "report: $hints hints" "$T/report.txt"; fi
if grep -q 'free it after its last GEMM' "$T/report.txt"; then pass "report: never-freed hint"; else flunk "report: never-freed hint" "$T/report.txt"; fi
"$TF" report --json "$SAMPLE" >"$T/report.json" 2>&1
jq_true "report --json parses" 'type == "object"' "$T/report.json"
jq_true "report --json: refusals with reasons and hints" \
  '[.refusals[] | select(.reason and .hint)] | length == 3' "$T/report.json"
jq_true "report --json: materializations with reasons" \
  '[.materializations[] | select(.reason and .hint)] | length == 4' "$T/report.json"
jq_true "report --json: the demo-shaped site" \
  '.sites[0] | .producer == "cublasSgeam" and .consumers == ["cublasGemmEx m=640 n=96 k=1728"] and .transposes == 2 and .bytes == 17694720' \
  "$T/report.json"
jq_true "report --json: a second process in one file" '.totals.transposes == 7' "$T/report.json"
jq_true "report --json: truncated line counted" '.malformed_lines == 1' "$T/report.json"
jq_true "report --json: modeled time at 4300 GB/s" \
  '(.totals.modeled_us - (.totals.bytes / 4300000)) | fabs < 1e-9' "$T/report.json"
"$TF" report --json --bandwidth 1000 "$SAMPLE" >"$T/report1000.json" 2>&1
jq_true "report --bandwidth" '.bandwidth_gbps == 1000 and (.totals.modeled_us - (.totals.bytes / 1e6) | fabs) < 1e-9' \
  "$T/report1000.json"
: >"$T/empty.jsonl"
expect "report: empty log" 0 'none: no transpose producer was recognised' -- "$TF" report "$T/empty.jsonl"

echo "== report: reason keys"
expect "keys: analysis/reasons.h, docs/events.md and the report's hints agree" 0 '' -- python3 "$HERE/keys.py" agree "$ROOT"
expect "report: each key's event gets that key's hint" 0 '^([0-9]+) of \1 keys get their hint$' -- \
  python3 "$HERE/keys.py" hints "$ROOT" "$T"
jq_true "report --json: each refusal and materialization names its key" \
  '[.refusals[], .materializations[], .pending_at_exit[]] | all(.key != null)' "$T/report.json"
jq_true "report --json: a materialization for a refused operand names the refusal as its cause" \
  '[.materializations[] | select(.key == "operand_refused")] | length == 1 and .[0].cause == "ld"' "$T/report.json"
# A log written before keys: a refusal's "key" was its class.
echo '{"event":"refuse","mode":"log","what":"transpose","producer":"cublasSgeam","name":"cublasSgeam","key":"scale","reason":"scale 2+0i is not 1"}' \
  >"$T/legacy.jsonl"
expect "report: a log from before keys gets the class's hint" 0 'HINT: the transpose scales by a value that is not exact' -- \
  "$TF" report "$T/legacy.jsonl"

echo "== ab"
expect "ab: equal outputs" 0 'outputs equal in all 6 runs' -- env TRANSFOLD_SIM=0 "$TF" ab -n 3 -- "$PROBE" same
expect "ab: program's own metric reported" 0 '^region +3\.500 .* 2\.500 .* 1\.400x' -- \
  env TRANSFOLD_SIM=0 "$TF" ab -n 3 -- "$PROBE" same
expect "ab: wall time reported" 0 '^wall ' -- env TRANSFOLD_SIM=0 "$TF" ab -n 2 -- "$PROBE" same
expect "ab: output differing under LD_PRELOAD fails" 1 'transfold ab: OUTPUT MISMATCH' -- \
  env TRANSFOLD_SIM=0 "$TF" ab -n 3 -- "$PROBE" env
expect "ab: mismatch shows the diff" 1 '^\+preloaded: yes' -- env TRANSFOLD_SIM=0 "$TF" ab -n 1 -- "$PROBE" env
expect "ab: a missing library fails before any run" 1 'libtransfold.so not found at /nonexistent.so' -- \
  env TRANSFOLD_SIM=0 TRANSFOLD_SO=/nonexistent.so "$TF" ab -n 1 -- "$PROBE" same
expect "ab: --keep keeps the runs" 0 'outputs equal' -- env TRANSFOLD_SIM=0 "$TF" ab -n 1 --keep "$T/keep" -- "$PROBE" same
if [ -f "$T/keep/B1.out" ]; then pass "ab: --keep wrote B1.out"; else flunk "ab: --keep wrote B1.out"; fi
if command -v gnuplot >/dev/null; then
  expect "ab --plot" 0 'plot written to' -- env TRANSFOLD_SIM=0 "$TF" ab -n 2 --plot "$T/ab.png" -- "$PROBE" same
  if [ "$(head -c 4 "$T/ab.png" 2>/dev/null | tail -c 3)" = PNG ]; then pass "ab --plot: a PNG"; else flunk "ab --plot: a PNG"; fi
fi
unset TRANSFOLD_SO TRANSFOLD_SIMDIR

echo "== with the library, on the CPU stand-in"
DEMO=$BUILD/programs/demo
if [ -f "$BUILD/libtransfold.so" ] && [ -f "$BUILD/sim/libcudart.so.13" ] && [ -x "$DEMO" ]; then
  export TRANSFOLD_SIM=1 TRANSFOLD_BUILD=$BUILD
  expect "demo runs under transfold" 0 '^Y: n=61440 fnv=' -- "$TF" run --summary none -- "$DEMO"
  expect "demo: log mode" 0 '' -- "$TF" run --mode log --log "$T/demo.jsonl" --summary none -- "$DEMO"
  "$TF" report --json "$T/demo.jsonl" >"$T/demo.json" 2>&1
  jq_true "demo: log mode finds the geam -> GemmEx pair" \
    '.sites | any(.producer == "cublasSgeam" and (.consumers | any(startswith("cublasGemmEx"))) and .bytes == 8847360)' \
    "$T/demo.json"
  expect "ab -n 5 on the demo: equal outputs" 0 'outputs equal in all 10 runs' -- "$TF" ab -n 5 -- "$DEMO"
  expect "ab -n 5 on the demo: ratio of medians and per pair" 0 \
    '^wall +[0-9.]+ \(.*\) +[0-9.]+ \(.*\) +[0-9.]+x( +[0-9.]+){5}$' -- "$TF" ab -n 5 -- "$DEMO"
  if grep -q 'warning: CMD exited' "$T/out"; then flunk "ab on the demo: the demo succeeds" "$T/out"; else pass "ab on the demo: the demo succeeds"; fi
  expect "make demo's script" 0 'demo: OK' -- env BUILD="$BUILD" bash "$ROOT/scripts/demo.sh"

  # Real logs of the end-to-end programs: each refusal or materialization is
  # named with the engine's reason and gets the matching hint.
  report_case() { # name program-case expected-reason-substring expected-hint-substring
    rm -f "$T/case.jsonl"
    "$TF" run --mode log --log "$T/case.jsonl" --summary none --kernels "$BUILD/programs/libtwins.so" -- \
      "$BUILD/programs/geam" "$2" >/dev/null 2>&1
    "$TF" report "$T/case.jsonl" >"$T/case.txt" 2>&1
    if grep -qF -- "$3" "$T/case.txt" && grep -A1 -F -- "$3" "$T/case.txt" | grep -qF -- "$4"; then
      pass "report on geam $2: $1"
    else
      flunk "report on geam $2: $1" "$T/case.txt"
    fi
    "$TF" report --json "$T/case.jsonl" >"$T/case.json" 2>&1
    jq_true "report --json on geam $2 parses" 'type == "object" and (.events > 0)' "$T/case.json"
  }
  report_case "scale refused" scale_0.3 "is not 1" "--scales pow2"
  report_case "leading dimension refused" ld_mismatch "leading dimension" "contiguous"
  report_case "device pointer mode refused" devptr "device pointer mode" "host pointer mode"
  report_case "read back" readback "destination read by cudaMemcpy" "cudaMemcpy read the transposed buffer"
  report_case "never freed" never_freed "never freed" "free it after its last GEMM"
  report_case "undescribed kernel" kernel_unrelated "unknown access by _Z9scale_f32Pfif" "--rules"
else
  flunk "the library, the stand-in and build/programs/demo are built (make $BUILD/libtransfold.so sim programs)"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
