#!/usr/bin/env bash
# End-to-end runner: every case of cases*.sh, each program run on the CPU
# stand-in without transfold and in every mode (see lib.sh).
#
#   BUILD=build bash tests/e2e/run.sh
#   E2E_ONLY='geam_* lt_*'    only the cases whose name matches one of the globs
#   E2E_OUT=dir               where runs leave their files (default $BUILD/e2e)
#   E2E_JOBS=n                cases run at once (default: number of CPUs)
#   SIMCUDA_ASYNC, SIMCUDA_RACE  the stand-in's asynchronous queues and race
#                             detector: on (1, abort) unless set, so every
#                             program runs in an order a GPU could choose and
#                             any race it has, with or without transfold,
#                             crashes its run
#
# Prints one line per check and ends with "N passed, M failed"; exits
# non-zero when any check failed.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
BUILD=$(cd "${BUILD:-build}" && pwd) || exit 2
RULES=$(printf '%s\n' "$ROOT"/tests/e2e/rules/*.rules | paste -sd: -)
OUT=${E2E_OUT:-$BUILD/e2e}
ONLY=${E2E_ONLY:-*}

for tool in jq nm timeout; do
    command -v $tool >/dev/null || { echo "run.sh: $tool is required"; exit 2; }
done

export SIMCUDA_ASYNC=${SIMCUDA_ASYNC-1} SIMCUDA_RACE=${SIMCUDA_RACE-abort}
. "$ROOT/tests/e2e/lib.sh"
# Cases live in cases.sh and in one cases_<topic>.sh per topic.
CASE_FILES=("$ROOT"/tests/e2e/cases*.sh)
for f in "${CASE_FILES[@]}"; do . "$f"; done

# Cases in the order their files define them.
CASES=$(cat "${CASE_FILES[@]}" | grep -oE '^case_[A-Za-z0-9_]+\(\)' | sed 's/^case_//; s/()$//')
selected() {
    local glob
    set -f
    for glob in $ONLY; do
        # shellcheck disable=SC2053
        [[ $1 == $glob ]] && { set +f; return 0; }
    done
    set +f
    return 1
}

# Cases run in parallel (E2E_JOBS, default: the number of CPUs), each into
# its own directory; their check lines are printed in case order.
JOBS=${E2E_JOBS:-$(nproc 2>/dev/null || echo 2)}
run_case() {
    CASE=$1
    CASE_DIR=$OUT/$1
    mkdir -p "$CASE_DIR"
    "case_$1" >"$CASE_DIR/checks" 2>&1
}

ran=()
for name in $CASES; do
    selected "$name" || continue
    ran+=("$name")
    run_case "$name" &
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
done
wait

for name in "${ran[@]}"; do
    cat "$OUT/$name/checks"
    PASSED=$((PASSED + $(grep -c '^ok ' "$OUT/$name/checks")))
    FAILED=$((FAILED + $(grep -c '^FAIL ' "$OUT/$name/checks")))
done
[ "${#ran[@]}" -gt 0 ] || echo "run.sh: no case matches '$ONLY'"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] && [ "${#ran[@]}" -gt 0 ]
