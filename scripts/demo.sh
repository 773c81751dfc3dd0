#!/usr/bin/env bash
# make demo: the seed's pattern (a weight transposed by cublasSgeam, then
# Y = X * W^T through cublasGemmEx reading the transposed copy) at 1/8 of the
# seed's shapes, run on the CPU stand-in three times: without transfold, in
# log mode (what would be folded), and folding. Shows what was found, that
# the three outputs are bitwise equal, that the transpose never ran when
# folded (from the stand-in's trace of executed device work), and what that
# saved. Builds nothing: `make demo` builds first.
# Exits 1 when a run fails, the outputs differ or the transpose still ran.
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
TF=$ROOT/scripts/transfold
PROG=$BUILD/programs/demo
PRODUCER=cublasSgeam

# The demo is about the stand-in, even on a machine with a GPU.
export TRANSFOLD_SIM=1 TRANSFOLD_BUILD=$BUILD

[ -x "$PROG" ] || { echo "demo: $PROG is missing (run 'make demo', which builds it)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/transfold-demo.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

banner() { printf '\n== %s\n' "$*"; }

# Runs the demo once: run_demo NAME [transfold run options]; leaves NAME.out
# (stdout without timing lines), NAME.err, NAME.trace; fails the demo when
# the program fails.
run_demo() {
  local name=$1 t0 t1 rc; shift
  t0=$(date +%s%N)
  SIMCUDA_TRACE=$TMP/$name.trace "$TF" run "$@" -- "$PROG" >"$TMP/$name.raw" 2>"$TMP/$name.err"
  rc=$?
  t1=$(date +%s%N)
  grep -v '^transfold-ab: ' "$TMP/$name.raw" >"$TMP/$name.out"
  if [ $rc != 0 ]; then
    echo "demo: the $name run failed with status $rc:" >&2
    tail -n 20 "$TMP/$name.raw" "$TMP/$name.err" >&2
    exit 1
  fi
  echo "  ran in $(( (t1 - t0) / 1000000 )) ms; stdout:"
  sed 's/^/    /' "$TMP/$name.out"
}

# How many times the stand-in executed the transpose in a run.
producer_runs() {
  [ -f "$TMP/$1.trace" ] || { echo "?"; return; }
  jq -R -n --arg op "$PRODUCER" '[inputs | (try fromjson catch null) | select(type == "object" and .op == $op)] | length' \
    "$TMP/$1.trace"
}

banner "1/3  without transfold (CPU stand-in of CUDA)"
run_demo plain --without

banner "2/3  transfold run --mode log: find what could be folded, change nothing"
run_demo log --mode log --log "$TMP/log.jsonl" --summary none
echo
"$TF" report "$TMP/log.jsonl" | sed 's/^/  /'

banner "3/3  transfold run (fold mode)"
run_demo fold --mode fold --log "$TMP/fold.jsonl" --summary "$TMP/summary.txt"
echo "  transfold's exit summary:"
sed 's/^/    /' "$TMP/summary.txt" 2>/dev/null || echo "    (none written)"

banner "Result"
status=0
for name in log fold; do
  if cmp -s "$TMP/plain.out" "$TMP/$name.out"; then
    echo "  outputs bitwise equal: without transfold = $name mode"
  else
    echo "  OUTPUTS DIFFER: without transfold vs $name mode:"
    diff -u --label without --label "$name" "$TMP/plain.out" "$TMP/$name.out" | head -n 20 | sed 's/^/    /'
    status=1
  fi
done

runs_plain=$(producer_runs plain) runs_log=$(producer_runs log) runs_fold=$(producer_runs fold)
echo "  $PRODUCER executed by the stand-in: without $runs_plain, log mode $runs_log, fold mode $runs_fold"
if [ "$runs_fold" != 0 ]; then
  echo "  THE TRANSPOSE STILL RAN IN FOLD MODE"
  status=1
fi

saved=$("$TF" report --json "$TMP/fold.jsonl" | jq -r '.totals |
  "\(.bytes / 1e4 | round / 100) MB of transpose traffic and \(.launches) launch(es) avoided, about \(.modeled_us * 100 | round / 100) us on an H200 (\(.operands_folded) GEMM operand(s) folded)"')
echo "  saved: ${saved:-nothing (no fold-mode log)}"
[ $status = 0 ] && echo "  demo: OK" || echo "  demo: FAILED"
exit $status
