# Helpers of the end-to-end runner (sourced by run.sh; cases.sh uses them).
#
# A case runs one program in every mode:
#   base   the stand-in alone (no transfold)
#   off    LD_PRELOAD=libtransfold.so TRANSFOLD_MODE=off
#   log    TRANSFOLD_MODE=log
#   fold   TRANSFOLD_MODE=fold TRANSFOLD_POLICY=strict
#   args   TRANSFOLD_MODE=fold TRANSFOLD_POLICY=args
#   verify TRANSFOLD_MODE=fold TRANSFOLD_VERIFY=1 (each fold checked against
#          the unfolded call computed into scratch memory)
#   inject verify mode on the test-only build that folds one element off:
#          verify must catch every wrong fold and keep the unfolded result
# Each run leaves $CASE_DIR/<mode>.{out,err,rc,trace,log,summary}.
# SAN_PRELOAD (make sanitize): sanitizer runtimes preloaded before
# libtransfold.so, which was built with them. Traces are
# compared as token lists: the "op" of each line, or "kernel:<name>" for
# kernels (addresses differ from run to run, operations must not).
#
# Every check prints one line, "ok   ..." or "FAIL ...", and counts.

PASSED=0
FAILED=0
MODES="base off log fold args verify inject"
PRELOAD_MODES="off log fold args verify inject"
FOLD_MODES="fold args"

ok() { PASSED=$((PASSED + 1)); printf 'ok   %s: %s\n' "$CASE" "$*"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL %s: %s\n' "$CASE" "$*"; }
# check DESCRIPTION EXPECTED ACTUAL
check() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1 (expected '$2', got '$3')"; fi; }

# Runs "$@" in mode $1; results land in $CASE_DIR/$1.*
run_mode() {
    local mode=$1
    shift
    local d=$CASE_DIR
    rm -f "$d/$mode".*
    local env=(LD_LIBRARY_PATH="$BUILD/sim" SIMCUDA_KERNELS="$BUILD/programs/libtwins.so"
        SIMCUDA_TRACE="$d/$mode.trace")
    case $mode in
    base) ;;
    off) env+=(LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$BUILD/libtransfold.so" TRANSFOLD_MODE=off) ;;
    log | fold | args | verify | inject)
        local lib=$BUILD/libtransfold.so
        [ "$mode" = inject ] && lib=$BUILD/inject/libtransfold.so
        env+=(LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$lib" TRANSFOLD_LOG="$d/$mode.log" TRANSFOLD_RULES="$RULES"
            TRANSFOLD_SUMMARY="$d/$mode.summary")
        case $mode in
        log) env+=(TRANSFOLD_MODE=log) ;;
        fold) env+=(TRANSFOLD_MODE=fold TRANSFOLD_POLICY=strict) ;;
        args) env+=(TRANSFOLD_MODE=fold TRANSFOLD_POLICY=args) ;;
        verify | inject) env+=(TRANSFOLD_MODE=fold TRANSFOLD_POLICY=strict TRANSFOLD_VERIFY=1) ;;
        esac
        ;;
    esac
    # (a crash shows in the exit status; keep bash from reporting it too)
    (cd "$d" && env "${env[@]}" timeout "${E2E_TIMEOUT:-60}" "$@" >"$mode.out" 2>"$mode.err") 2>/dev/null
    echo $? >"$d/$mode.rc"
    touch "$d/$mode.trace" "$d/$mode.log"
}

# The trace of a mode as tokens, one a line.
tokens() {
    jq -r 'if .op == "kernel" then "kernel:" + (.name // "?") else .op end' "$CASE_DIR/$1.trace" 2>/dev/null
}

# run_all PROGRAM ARGS...: every mode, then the checks every case shares:
# base succeeds; each mode prints the same bytes and exits the same way;
# off and log change nothing on the device; events carry their mode.
run_all() {
    local prog=$1
    shift
    local mode
    for mode in $MODES; do run_mode "$mode" "$BUILD/programs/$prog" "$@"; done
    check "base run exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    for mode in $PRELOAD_MODES; do
        if cmp -s "$CASE_DIR/base.out" "$CASE_DIR/$mode.out"; then
            ok "$mode: stdout identical to base"
        else
            fail "$mode: stdout differs from base ($(diff "$CASE_DIR/base.out" "$CASE_DIR/$mode.out" | head -3 | tr '\n' ' '))"
        fi
        check "$mode: exit status" "$(cat "$CASE_DIR/base.rc")" "$(cat "$CASE_DIR/$mode.rc")"
        check "$mode: libtransfold.so was preloaded" 0 "$(grep -c 'ld.so: object .* cannot be preloaded' "$CASE_DIR/$mode.err")"
    done
    for mode in log $FOLD_MODES; do
        check "$mode: exit summary written" yes "$([ -s "$CASE_DIR/$mode.summary" ] && echo yes || echo no)"
    done
    expect_same_trace off
    expect_same_trace log
    check "log: every event says mode log" 0 "$(jq -c 'select(.mode != "log")' "$CASE_DIR/log.log" 2>&1 | wc -l)"
    for mode in $FOLD_MODES; do
        check "$mode: every event says mode fold" 0 "$(jq -c 'select(.mode != "fold")' "$CASE_DIR/$mode.log" 2>&1 | wc -l)"
    done
    expect_verified
}

# Verify mode: every folded call was checked (or skipped, inside a stream
# capture) and agreed; on the build with a deliberately wrong fold, every
# checked call was caught (and stdout, compared above, still equals base:
# the unfolded result was kept).
expect_verified() {
    local folds checked caught seen
    folds=$(count_events fold true verify)
    checked=$(count_events verify '.result != "skipped"' verify)
    seen=$(count_events verify true verify)
    check "verify: no mismatch" 0 "$(count_events verify '.result == "MISMATCH"' verify)"
    # one verify per folded call; a call may fold both its operands
    check "verify: every folded call checked" yes \
        "$([ "$seen" -le "$folds" ] && [ "$seen" -ge $(((folds + 1) / 2)) ] && echo yes || echo no)"
    caught=$(count_events verify '.result == "MISMATCH"' inject)
    check "inject: each wrong fold caught" "$checked" "$caught"
}

# count_events EVENT JQ-CONDITION MODE
count_events() {
    jq -c "select(.event == \"$1\" and ($2))" "$CASE_DIR/$3.log" 2>/dev/null | wc -l
}

# Trace lines that are host-side queries, not device work: transfold may
# add them (log mode asks the heuristic whether a fold would be accepted).
HOST_QUERIES='cublasLtMatmulAlgoGetHeuristic'
# On the asynchronous stand-in lines are written when work runs (host-side
# calls such as cudaMalloc when they are made), in an order the schedule
# picks: the operations are compared as a multiset there; expect_run checks
# the orders that matter.
device_tokens() {
    if [ "${SIMCUDA_ASYNC:-}" = 1 ]; then
        tokens "$1" | grep -vxE "$HOST_QUERIES" | sort
    else
        tokens "$1" | grep -vxE "$HOST_QUERIES"
    fi
}

# expect_same_trace MODE: the device did exactly what it did in base.
expect_same_trace() {
    if diff -q <(device_tokens base) <(device_tokens "$1") >/dev/null; then
        ok "$1: trace has the same device operations as base"
    else
        fail "$1: trace differs from base: $(diff <(device_tokens base) <(device_tokens "$1") | grep '^[<>]' | head -4 | tr '\n' ' ')"
    fi
}

# expect_trace MODE TOKEN N: TOKEN ran exactly N times.
expect_trace() {
    check "$1: $2 runs $3 time(s)" "$3" "$(tokens "$1" | grep -cxF -- "$2")"
}

# expect_run MODE "T1 T2 ...": among the operations named, these come one
# right after the other (e.g. the replay between the GEMM and the copy).
expect_run() {
    local mode=$1 want=" $2 " alt got names
    read -ra names <<<"$2"
    alt=$(printf '%s\n' "${names[@]}" | sort -u | paste -sd'|' -)
    got=" $(tokens "$mode" | grep -xE -- "$alt" | paste -sd' ' -) "
    case $got in
    *"$want"*) ok "$mode: trace runs '$2' in that order" ;;
    *) fail "$mode: trace does not run '$2' in that order (got:$got)" ;;
    esac
}

# expect_events MODE EVENT N [JQ-CONDITION]: the log holds N such events.
expect_events() {
    local cond=${4:-true}
    check "$1: $3 '$2' event(s)${4:+ with $4}" "$3" \
        "$(jq -c "select(.event == \"$2\" and ($cond))" "$CASE_DIR/$1.log" 2>/dev/null | wc -l)"
}

# expect_event_before MODE EVENT1 EVENT2: the first EVENT1 precedes the first EVENT2.
expect_event_before() {
    local order
    order=$(jq -r '.event' "$CASE_DIR/$1.log" 2>/dev/null | grep -xE "$2|$3" | head -1)
    check "$1: first '$2' event comes before first '$3'" "$2" "$order"
}

# expect_line MODE LABEL REGEX: stdout's line starting with LABEL matches REGEX.
expect_line() {
    local line
    line=$(grep -F -- "$2" "$CASE_DIR/$1.out" | head -1)
    if [[ $line =~ $3 ]]; then ok "$1: '$2' -> $3"; else fail "$1: '$2' -> '$line', expected /$3/"; fi
}

# expect_same_lines MODE REGEX: stdout lines matching REGEX equal base's.
expect_same_lines() {
    if diff -q <(grep -E -- "$2" "$CASE_DIR/base.out") <(grep -E -- "$2" "$CASE_DIR/$1.out") >/dev/null; then
        ok "$1: lines /$2/ identical to base"
    else
        fail "$1: lines /$2/ differ from base"
    fi
}

# expect_stderr MODE REGEX N: N lines of the program's stderr match REGEX.
expect_stderr() {
    check "$1: $3 stderr line(s) match /$2/" "$3" "$(grep -cE -- "$2" "$CASE_DIR/$1.err")"
}

# expect_summary MODE REGEX: the exit summary (TRANSFOLD_SUMMARY) matches.
expect_summary() {
    if grep -qE -- "$2" "$CASE_DIR/$1.summary" 2>/dev/null; then
        ok "$1: summary matches /$2/"
    else
        fail "$1: summary does not match /$2/: $(tr '\n' ' ' <"$CASE_DIR/$1.summary" 2>/dev/null | cut -c1-200)"
    fi
}

# --- bundles used by most cases --------------------------------------------

# folded TOKEN FOLDS [MODES]: the producer TOKEN runs once per record in base,
# never in the given modes (default fold and args); FOLDS operands were
# folded, nothing was materialized; the log run (strict policy) found the
# same folds when the strict fold mode is among MODES.
folded() {
    local tok=$1 folds=$2 modes=${3:-$FOLD_MODES} n mode
    n=$(tokens base | grep -cxF -- "$tok")
    check "base: $tok runs" 1 "$([ "$n" -gt 0 ] && echo 1 || echo 0)"
    for mode in $modes; do
        expect_trace "$mode" "$tok" 0
        expect_events "$mode" transpose "$n"
        expect_events "$mode" fold "$folds"
        expect_events "$mode" materialize 0
    done
    # log mode runs under the default (strict) policy
    if [[ " $modes " == *" fold "* ]]; then
        expect_events log transpose "$n"
        expect_events log fold "$folds"
    fi
}

# materialized TOKEN MATS "RUN" [MODES]: the producer was deferred, then
# replayed MATS times; "RUN" is the order the trace must show; no folds.
materialized() {
    local tok=$1 mats=$2 run=$3 modes=${4:-$FOLD_MODES} n mode
    n=$(tokens base | grep -cxF -- "$tok")
    for mode in $modes; do
        expect_trace "$mode" "$tok" "$n"
        expect_events "$mode" materialize "$mats"
        expect_events "$mode" fold 0
        expect_run "$mode" "$run"
    done
    if [[ " $modes " == *" fold "* ]]; then expect_events log materialize "$mats"; fi
}

# untouched [MODES]: the producer was not deferred at all (refused or
# not recognised): device work identical to base, nothing folded or replayed.
untouched() {
    local modes=${1:-$FOLD_MODES} mode
    for mode in $modes; do
        expect_same_trace "$mode"
        expect_events "$mode" fold 0
        expect_events "$mode" materialize 0
        expect_events "$mode" transpose 0
    done
    expect_events log fold 0
}
