# Cases: deferral under concurrency (tests/programs/concurrency.cu), on the
# asynchronous stand-in with its race detector aborting on any race, so a
# fold that reorders work across streams, a replay that deadlocks behind a
# host function or a capture that records a stale read shows as a crash or
# as output differing from base.
CONCURRENCY_ENV=(SIMCUDA_ASYNC=1 SIMCUDA_RACE=abort)

case_streams_late_overwrite() { # a later stream rewrites the source after the record was dropped
    export "${CONCURRENCY_ENV[@]}"
    run_all concurrency late_overwrite
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 0
        expect_events "$m" fold 1
        expect_events "$m" drop 1
    done
    expect_seeds late_overwrite 7 8 9
}

case_streams_late_free() { # a later stream frees the source after the record was replayed
    export "${CONCURRENCY_ENV[@]}"
    run_all concurrency late_free
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1
    done
    expect_seeds late_free 7 8 9
}

case_streams_host_func() { # no replay queued behind a host function that waits for the host
    export "${CONCURRENCY_ENV[@]}"
    run_all concurrency host_func
    local m
    for m in base $PRELOAD_MODES; do expect_line "$m" "host function timed out" ': 0$'; done
    for m in $FOLD_MODES; do
        expect_events "$m" materialize 1 '.reason == "host function queued" and .key == "host_function"'
        expect_run "$m" "cublasSgeam cudaLaunchHostFunc"
    done
}

case_streams_handle_thread() { # replays never touch a handle another thread is using
    export "${CONCURRENCY_ENV[@]}"
    run_all concurrency handle_thread
    local m
    for m in base $PRELOAD_MODES; do expect_line "$m" "pointer mode seen changed" ': 0$'; done
    for m in $FOLD_MODES; do expect_events "$m" materialize 400; done
}

case_streams_capture_join() { # a stream joining a capture brings no record into it
    export "${CONCURRENCY_ENV[@]}"
    run_all concurrency capture_join
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 0
        expect_events "$m" materialize 1 '.reason == "stream joins a capture" and .key == "capture_joins"'
    done
}

case_streams_capture_fold() { # folded while another stream captures: verify mode skips it, and says so
    export "${CONCURRENCY_ENV[@]}"
    # no inject run: unverified, its one-off fold would stand
    local MODES="base off log fold args verify" PRELOAD_MODES="off log fold args verify"
    run_all concurrency capture_fold
    expect_events verify verify 1 '.result == "skipped" and .reason == "a stream capture is in progress" and .key == "verify_capture"'
    expect_events fold fold 1
}

case_streams_race_detector() { # the detector's own test: a deliberate race is caught, both writes named
    run_mode base env SIMCUDA_ASYNC=1 SIMCUDA_RACE=report "$BUILD/programs/concurrency" racy
    check "report: exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    expect_stderr base 'simcuda race: cudaMemsetAsync \(write, stream 0x[0-9a-f]+\) and cudaMemsetAsync \(write, stream 0x[0-9a-f]+\) are not ordered' 1
    run_mode off env SIMCUDA_ASYNC=1 SIMCUDA_RACE=abort "$BUILD/programs/concurrency" racy
    check "abort: the run aborts" 134 "$(cat "$CASE_DIR/off.rc")"
    run_mode log env SIMCUDA_RACE=report "$BUILD/programs/concurrency" late_overwrite
    expect_stderr log 'simcuda race' 0
}

# expect_seeds CASE SEED...: fold mode under other schedules equals base.
expect_seeds() {
    local c=$1 seed
    shift
    for seed in "$@"; do
        SIMCUDA_SCHED_SEED=$seed run_mode fold "$BUILD/programs/concurrency" "$c"
        if cmp -s "$CASE_DIR/base.out" "$CASE_DIR/fold.out"; then
            ok "fold, schedule seed $seed: stdout identical to base"
        else
            fail "fold, schedule seed $seed: stdout differs from base"
        fi
        check "fold, schedule seed $seed: exit status" "$(cat "$CASE_DIR/base.rc")" "$(cat "$CASE_DIR/fold.rc")"
    done
}
