#!/usr/bin/env bash
# Differential fuzzer runner: for each seed, build/fuzz/fuzz runs on the CPU
# stand-in without transfold (base) and with it in every mode below; each
# mode's stdout must equal base's byte for byte, no run may crash, verify
# mode must find no mismatch, and across the seeds fold mode must have
# deferred and folded something. A failing seed is cut down to its smallest
# failing step count (bisection), printed with the commands that reproduce it.
#
#   BUILD=build bash tests/fuzz/run.sh
#   FUZZ_SEEDS=n    how many seeds (default 150)
#   FUZZ_FIRST=s    the first seed (default 1): seeds s .. s+n-1
#   FUZZ_STEPS=n    steps a seed (default 1000)
#   FUZZ_JOBS=n     seeds run at once (default: number of CPUs)
#   FUZZ_OUT=dir    where runs leave their files (default $BUILD/fuzz/runs)
#   FUZZ_MODES=...  the modes to run (default "fold args log verify inject learn")
#   FUZZ_BISECT=n   failing seeds cut down to their smallest failing step
#                   count, per failing mode (default 3; the others print
#                   the full command)
#   FUZZ_ASYNC=0|1  the asynchronous stand-in (SIMCUDA_ASYNC, default 1);
#                   each mode runs under its own schedule (SIMCUDA_SCHED_SEED
#                   1 for base, 2, 3, ... for the modes in order)
#   FUZZ_RACE=...   SIMCUDA_RACE (default abort: a race crashes the run)
#
# Modes (the kernel rules of tests/e2e/rules are given to all of them):
#   fold    TRANSFOLD_MODE=fold TRANSFOLD_POLICY=strict
#   args    TRANSFOLD_MODE=fold TRANSFOLD_POLICY=args
#   log     TRANSFOLD_MODE=log
#   verify  TRANSFOLD_MODE=fold TRANSFOLD_VERIFY=1
#   inject  verify mode on the test-only build whose folds are one element
#           off ($BUILD/inject): verify must keep the unfolded result of
#           every fold, so stdout still equals base
#   learn   TRANSFOLD_MODE=fold TRANSFOLD_LEARN=1 and no rules: the transpose
#           kernels must be learned (or rejected) on the data
#
# Prints one line per seed and ends with "N passed, M failed"; exits
# non-zero when any seed (or the event check) failed.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=$(cd "${BUILD:-build}" && pwd) || exit 2
RULES=$(printf '%s\n' "$ROOT"/tests/e2e/rules/*.rules | paste -sd: -)
FUZZ=$BUILD/fuzz/fuzz
OUT=${FUZZ_OUT:-$BUILD/fuzz/runs}
SEEDS=${FUZZ_SEEDS:-150}
FIRST=${FUZZ_FIRST:-1}
STEPS=${FUZZ_STEPS:-1000}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
MODES=${FUZZ_MODES:-fold args log verify inject learn}
BISECT=${FUZZ_BISECT:-3}
ASYNC=${FUZZ_ASYNC:-1}
RACE=${FUZZ_RACE:-abort}
EVENTS="transpose fold materialize drop refuse verify"

for f in "$FUZZ" "$BUILD/libtransfold.so" "$BUILD/programs/libtwins.so" "$BUILD/sim/libcudart.so.13" \
    $([[ " $MODES " == *" inject "* ]] && echo "$BUILD/inject/libtransfold.so"); do
    [ -e "$f" ] || { echo "run.sh: $f missing (make fuzz builds what it needs)"; exit 2; }
done
command -v jq >/dev/null || { echo "run.sh: jq is required"; exit 2; }

# The environment of a mode, one assignment a word (paths relative to ROOT,
# so that the reproduction commands can be pasted).
mode_env() {
    local b=${BUILD#"$ROOT"/}
    printf '%s ' LD_LIBRARY_PATH="$b/sim" SIMCUDA_KERNELS="$b/programs/libtwins.so"
    printf '%s ' SIMCUDA_ASYNC="$ASYNC" SIMCUDA_RACE="$RACE" SIMCUDA_SCHED_SEED="$(schedule "$1")"
    [ "$1" = base ] && return
    printf '%s ' LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$b/$([ "$1" = inject ] && echo inject/)libtransfold.so"
    [ "$1" = learn ] || printf '%s ' TRANSFOLD_RULES="${RULES//$ROOT\//}"
    printf '%s ' TRANSFOLD_SUMMARY=none
    case $1 in
    fold) printf '%s ' TRANSFOLD_MODE=fold TRANSFOLD_POLICY=strict ;;
    args) printf '%s ' TRANSFOLD_MODE=fold TRANSFOLD_POLICY=args ;;
    log) printf '%s ' TRANSFOLD_MODE=log ;;
    verify | inject) printf '%s ' TRANSFOLD_MODE=fold TRANSFOLD_VERIFY=1 ;;
    learn) printf '%s ' TRANSFOLD_MODE=fold TRANSFOLD_LEARN=1 ;;
    esac
}
# Each mode runs under a schedule of its own: a seed is tried in as many
# orders of its device work as there are modes.
schedule() {
    local i=1 m
    for m in base $MODES; do
        [ "$m" = "$1" ] && break
        i=$((i + 1))
    done
    echo "$i"
}
repro() { echo "$(mode_env "$1")${FUZZ#"$ROOT"/} $2 $3"; }

# run_mode MODE SEED STEPS DIR: DIR/MODE.{out,err,rc,log}
run_mode() {
    local mode=$1 seed=$2 steps=$3 d=$4 env
    read -ra env <<<"$(mode_env "$mode")"
    rm -f "$d/$mode".*
    [ "$mode" = base ] || env+=(TRANSFOLD_LOG="$d/$mode.log")
    # (a crash shows in the exit status; keep bash from reporting it too)
    (env "${env[@]}" timeout 60 "$FUZZ" "$seed" "$steps" >"$d/$mode.out" 2>"$d/$mode.err") 2>/dev/null
    echo $? >"$d/$mode.rc"
    touch "$d/$mode.log"
}

# mode_problem MODE DIR: what is wrong with MODE's run against base, or nothing.
mode_problem() {
    local mode=$1 d=$2 rc base_rc line mismatches=0
    rc=$(cat "$d/$mode.rc")
    base_rc=$(cat "$d/base.rc")
    [ "$mode" = verify ] &&
        mismatches=$(jq -c 'select(.event == "verify" and .result != "equal")' "$d/verify.log" | wc -l)
    if [ "$rc" != "$base_rc" ]; then
        echo "exit status $rc, base $base_rc$([ "$rc" -gt 128 ] && echo " (signal $((rc - 128)))")"
    elif ! cmp -s "$d/base.out" "$d/$mode.out"; then
        line=$(cmp "$d/base.out" "$d/$mode.out" 2>&1 | grep -oE 'line [0-9]+' | head -1)
        line=${line:-the end}
        [ "$mode" = inject ] && line+=": a wrong fold got past verify"
        echo "stdout differs from base at $line"
    elif grep -q 'cannot be preloaded' "$d/$mode.err"; then
        echo "libtransfold.so was not preloaded"
    elif [ "$mismatches" -gt 0 ]; then
        echo "verify reported $mismatches mismatch(es)"
    fi
}

# count EVENT MODE DIR
count() { jq -c "select(.event == \"$1\")" "$3/$2.log" 2>/dev/null | wc -l; }

# check_seed SEED: every mode; DIR/result holds "ok ..." or one line per
# failing mode ("MODE: problem").
check_seed() {
    local seed=$1 d=$OUT/$1 mode p
    mkdir -p "$d"
    run_mode base "$seed" "$STEPS" "$d"
    : >"$d/result"
    if [ "$(cat "$d/base.rc")" != 0 ]; then
        echo "base: exit status $(cat "$d/base.rc"): $(tail -1 "$d/base.out")" >"$d/result"
        return
    fi
    for mode in $MODES; do
        run_mode "$mode" "$seed" "$STEPS" "$d"
        p=$(mode_problem "$mode" "$d")
        [ -z "$p" ] || echo "$mode: $p" >>"$d/result"
    done
    [ -s "$d/result" ] && return
    mode=${MODES%% *} # the events of the first mode
    echo "ok $mode: $(count transpose "$mode" "$d") transposes, $(count fold "$mode" "$d") folds" >"$d/result"
}

# fails_at SEED MODE STEPS: MODE's run differs from base's (in $OUT/SEED/bisect).
fails_at() {
    local d=$OUT/$1/bisect
    mkdir -p "$d"
    run_mode base "$1" "$3" "$d"
    run_mode "$2" "$1" "$3" "$d"
    [ -n "$(mode_problem "$2" "$d")" ]
}

# smallest_failing SEED MODE: the smallest step count at which MODE still
# fails (bisection), or nothing when the full run does not fail again.
smallest_failing() {
    local seed=$1 mode=$2 lo=0 hi=$STEPS mid
    fails_at "$seed" "$mode" "$hi" || return
    while [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        if fails_at "$seed" "$mode" "$mid"; then hi=$mid; else lo=$mid; fi
    done
    echo "$hi"
}

# Seeds run in parallel, each into its own directory; lines print in order.
seeds=$(seq "$FIRST" $((FIRST + SEEDS - 1)))
start=$(date +%s)
for seed in $seeds; do
    check_seed "$seed" &
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
done
wait

PASSED=0
FAILED=0
declare -A BISECTED # failing seeds cut down, per mode
for seed in $seeds; do
    d=$OUT/$seed
    if grep -q '^ok ' "$d/result"; then
        PASSED=$((PASSED + 1))
        echo "ok   seed $seed ($STEPS steps): $(sed 's/^ok //' "$d/result")"
        continue
    fi
    FAILED=$((FAILED + 1))
    sed "s/^/FAIL seed $seed ($STEPS steps): /" "$d/result"
    mode=$(head -1 "$d/result" | cut -d: -f1)
    [ "$mode" = base ] && { echo "     reproduce: $(repro base "$seed" "$STEPS")"; continue; }
    BISECTED[$mode]=$((${BISECTED[$mode]:-0} + 1))
    if [ "${BISECTED[$mode]}" -gt "$BISECT" ]; then
        echo "     reproduce (compare with base): $(repro "$mode" "$seed" "$STEPS")"
        continue
    fi
    small=$(smallest_failing "$seed" "$mode")
    if [ -z "$small" ]; then
        echo "     $mode did not fail again (flaky); reproduce: $(repro "$mode" "$seed" "$STEPS")"
        continue
    fi
    echo "     smallest failing prefix: $small steps; reproduce (compare with base):"
    echo "       $(repro "$mode" "$seed" "$small")"
    echo "       $(repro base "$seed" "$small")"
    fails_at "$seed" "$mode" "$small"
    echo "     $mode: $(mode_problem "$mode" "$d/bisect"); last steps and first difference:"
    grep -E '^ *[0-9]+ ' "$d/bisect/base.out" | tail -4 | sed 's/^/       base: /'
    diff "$d/bisect/base.out" "$d/bisect/$mode.out" | grep '^[<>]' | head -4 | sed 's/^/       /'
    tail -3 "$d/bisect/$mode.err" | sed 's/^/       stderr: /'
done

# Events across the seeds, per mode.
declare -A TOTAL
for mode in $MODES; do
    counts=$(for seed in $seeds; do cat "$OUT/$seed/$mode.log"; done 2>/dev/null | jq -r .event | sort | uniq -c)
    line="events $mode:"
    for ev in $EVENTS; do
        TOTAL[$mode.$ev]=$(awk -v e="$ev" '$2 == e { n = $1 } END { print n + 0 }' <<<"$counts")
        line+=" $ev ${TOTAL[$mode.$ev]}"
    done
    echo "$line"
done
if [[ " $MODES " != *" fold "* ]]; then
    :
elif [ "${TOTAL[fold.transpose]}" -gt 0 ] && [ "${TOTAL[fold.fold]}" -gt 0 ] && [ "${TOTAL[fold.drop]}" -gt 0 ]; then
    echo "ok   fold mode deferred, folded and dropped transposes"
else
    FAILED=$((FAILED + 1))
    echo "FAIL fold mode did not defer, fold and drop transposes (nothing exercised)"
fi
echo "fuzz: seeds $FIRST..$((FIRST + SEEDS - 1)), $STEPS steps each, $(($(date +%s) - start)) s"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
