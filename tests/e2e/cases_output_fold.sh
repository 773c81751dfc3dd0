# Output-side folding (issue 20 item 6, on unless TRANSFOLD_OUTPUT_FOLD=0): a
# GEMM's output transposed by cublasSgeam is written transposed by the GEMM
# itself, the geam never runs; every other reader replays the GEMM as it was.
# (learn_mode is cases_learn.sh's: a run with the given variables.)

OF_STEPS=3

# of_all VARIANT: base, fold without output folding, with it (the default;
# strict, args, verify), log (which defers no GEMM); every stdout equal to
# base.
of_all() {
    local prog=$BUILD/programs/output_fold m
    run_mode base "$prog" "$OF_STEPS" "$1"
    check "base run exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    learn_mode fold TRANSFOLD_OUTPUT_FOLD=0 -- "$prog" "$OF_STEPS" "$1"
    learn_mode of -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_args TRANSFOLD_POLICY=args -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_log TRANSFOLD_MODE=log -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_verify TRANSFOLD_VERIFY=1 -- "$prog" "$OF_STEPS" "$1"
    for m in fold of of_args of_log of_verify; do same_as_base "$m"; done
    for m in fold of_log; do expect_events "$m" gemm_deferred 0; expect_events "$m" output_fold 0; done
    # verify mode folds outputs too, each checked against the GEMM as called and the transpose
    check "of_verify: no mismatch" 0 "$(count_events verify '.result != "equal"' of_verify)"
    check "of_verify: every output fold verified" "$(count_events output_fold true of_verify)" \
        "$(count_events verify '.result == "equal" and .fold == "output"' of_verify)"
}

case_output_fold_plain() { # the geam never runs; the GEMM's own output is never written
    of_all plain
    local m
    for m in of of_args; do
        expect_events "$m" output_fold "$OF_STEPS" '.gemm == "cublasSgemm_v2" and .producer == "cublasSgeam"'
        expect_trace "$m" cublasSgeam 0
        expect_events "$m" transpose 0
        expect_summary "$m" "written transposed in a transpose's place $OF_STEPS,"
    done
    # without output folding each geam is deferred and folded into Y's GEMM,
    # then replayed when its source C is freed first
    expect_events fold fold "$OF_STEPS"
    expect_trace fold cublasSgeam "$OF_STEPS"
    # C (M = 12 rows) is never read: its GEMM never writes it (but when a
    # write into the span between A and B runs it first, on the stand-in a
    # host buffer there)
    check "of: C's GEMMs never run, or run early, once each" "$OF_STEPS" \
        "$(jq -c 'select((.event == "gemm_drop" or .event == "gemm_run") and .rows == 12)' "$CASE_DIR/of.log" | wc -l)"
    check "of: most C's are never written" yes \
        "$([ "$(count_events gemm_drop '.rows == 12 and .key == "dst_freed"' of)" -ge $((OF_STEPS - 1)) ] && echo yes || echo no)"
}

case_output_fold_typed() { # cublasGemmEx swapped: its A and B types swap too
    of_all typed
    expect_events of output_fold "$OF_STEPS" '.gemm == "cublasGemmEx"'
    expect_trace of cublasSgeam 0
}

case_output_fold_read() { # C read after the transpose: the GEMM runs as it was first
    of_all read
    expect_events of output_fold "$OF_STEPS"
    # every C record runs before its read (some earlier: a write into the
    # span between A and B runs it too), none is dropped
    expect_events of gemm_run "$OF_STEPS" '.rows == 12 and .producer == "cublasSgemm_v2"'
    expect_events of gemm_drop 0 '.rows == 12'
}

case_output_fold_overwrite() { # A overwritten before the transpose: the GEMM runs first
    of_all overwrite
    expect_events of output_fold 0
    expect_events of gemm_run "$OF_STEPS" '.rows == 12 and .key == "src_overwritten" and .trigger == "cudaMemset"'
}

# The handle changed between a deferred GEMM and its output's first reader:
# the GEMM runs under what it was called with (stdout equal to base proves
# it: each variant's bits depend on the setting; checked failing with the
# replay left under the handle's settings of the moment).
case_output_fold_math() { # TF32 math mode for C's GEMM, default after it
    of_all math
    expect_events of output_fold "$OF_STEPS"
    expect_events of gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "dst_read" and .rows == 12'
}

case_output_fold_stream() { # C's GEMM on s1, the handle on s2 for its reader
    of_all stream
    # not the same stream: no output fold; the geam's read runs the GEMM on s1 first
    expect_events of output_fold 0
    expect_events of gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .trigger == "cublasSgeam"'
}

case_output_fold_workspace() { # W1 for C's GEMM, W2 after: the stand-in's GEMM scribbles on its workspace
    of_all ws
    expect_events of output_fold "$OF_STEPS"
    grep -q '^step 0 W1: .*\[0\]=00000020' "$CASE_DIR/base.out"; check "base: C's GEMM wrote W1" 0 $?
}

case_output_fold_workspace_freed() { # W1 freed before the transpose: the GEMM runs first
    of_all wsfree
    expect_events of output_fold 0
    expect_events of gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "src_freed"'
}

case_output_fold_pool() { # W1, A and B freed with cudaFreeAsync on C's stream: held, and C still folds
    of_all pool
    local m
    for m in of of_args of_verify; do
        expect_events "$m" output_fold "$OF_STEPS" '.gemm == "cublasSgemm_v2"'
        expect_events "$m" gemm_run 0 '.key == "src_freed"'
        expect_events "$m" free_held $((3 * OF_STEPS))
    done
    expect_trace of cublasSgeam 0
    expect_summary of "frees held until what was deferred on them ran: $((3 * OF_STEPS))"
    # without output folding the geam is deferred and folded into Y's GEMM,
    # and C's free (its source) is held until T dies: it never runs
    expect_events fold free_held "$OF_STEPS"
    expect_trace fold cublasSgeam 0
    # log mode makes the frees, and says fold mode would hold C's for the geam
    expect_events of_log free_held "$OF_STEPS" '.mode == "log"'
    expect_trace of_log cublasSgeam "$OF_STEPS"
}

case_output_fold_pool_full() { # the pool runs out while frees are held: they are given back, the alloc retried
    SIMCUDA_POOL_LIMIT=$((52 << 20)) of_all poolfull
    local m
    for m in of of_args; do
        expect_events "$m" output_fold 0
        expect_events "$m" gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "pool_exhausted"'
    done
    # the geam is then an ordinary record, folded into Y's GEMM
    expect_events of fold "$OF_STEPS" '.producer == "cublasSgeam"'
    expect_trace of cublasSgeam 0
}

case_output_fold_pool_knobs() { # TRANSFOLD_HOLD_FREES=0, a small TRANSFOLD_HOLD_MAX_BYTES, bad values
    local prog=$BUILD/programs/output_fold v
    run_mode base "$prog" "$OF_STEPS" pool
    learn_mode nohold TRANSFOLD_HOLD_FREES=0 -- "$prog" "$OF_STEPS" pool
    learn_mode small TRANSFOLD_HOLD_MAX_BYTES=4096 -- "$prog" "$OF_STEPS" pool
    for m in nohold small; do same_as_base "$m"; done
    # off: every free made at once, and C's GEMM runs first (src_freed)
    expect_events nohold free_held 0
    expect_events nohold gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "src_freed"'
    # the 8 MiB workspace is over 4 KiB: its free runs the GEMM, A and B fit
    expect_events small gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "src_freed"'
    for v in TRANSFOLD_HOLD_FREES=2 TRANSFOLD_HOLD_MAX_BYTES=0 TRANSFOLD_HOLD_MAX_BYTES=1k; do
        learn_mode bad "$v" -- "$prog" "$OF_STEPS" pool
        same_as_base bad
        check "$v: a line names it" yes "$(grep -q "^transfold: ${v%%=*}=${v#*=} is not" "$CASE_DIR/bad.err" && echo yes)"
        expect_events bad gemm_deferred 0
    done
}

case_output_fold_destroy() { # C's GEMM on a handle destroyed before the transpose
    of_all destroy
    expect_events of output_fold 0
    expect_events of gemm_run "$OF_STEPS" '.producer == "cublasSgemm_v2" and .key == "cublas_handle_destroyed"'
}

case_output_fold_batched() { # strided-batched GEMM, its outputs transposed by one batched kernel (a rule)
    local prog=$BUILD/programs/output_fold m
    run_mode base "$prog" "$OF_STEPS" batched
    learn_mode fold TRANSFOLD_RULES="$RULES" TRANSFOLD_OUTPUT_FOLD=0 -- "$prog" "$OF_STEPS" batched
    learn_mode of TRANSFOLD_RULES="$RULES" -- "$prog" "$OF_STEPS" batched
    learn_mode of_args TRANSFOLD_RULES="$RULES" TRANSFOLD_POLICY=args -- "$prog" "$OF_STEPS" batched
    learn_mode of_verify TRANSFOLD_RULES="$RULES" TRANSFOLD_VERIFY=1 -- "$prog" "$OF_STEPS" batched
    for m in fold of of_args of_verify; do same_as_base "$m"; done
    for m in of of_args; do
        expect_events "$m" output_fold "$OF_STEPS" '.gemm == "cublasSgemmStridedBatched" and .producer == "kernel"'
        expect_trace "$m" _Z17transpose_batchedPfPKfiii 0
    done
    # without output folding the kernel is deferred and folded into Y's GEMM
    expect_events fold output_fold 0
    expect_events fold fold "$OF_STEPS"
    check "of_verify: no mismatch" 0 "$(count_events verify '.result != "equal"' of_verify)"
    check "of_verify: every output fold verified" "$(count_events output_fold true of_verify)" \
        "$(count_events verify '.result == "equal" and .fold == "output"' of_verify)"
}
