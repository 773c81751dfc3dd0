# Output-side folding (issue 20 item 6, opt-in TRANSFOLD_OUTPUT_FOLD=1): a
# GEMM's output transposed by cublasSgeam is written transposed by the GEMM
# itself, the geam never runs; every other reader replays the GEMM as it was.
# (learn_mode is cases_learn.sh's: a run with the given variables.)

OF_STEPS=3

# of_all VARIANT: base, fold without output folding, with it (strict, args),
# log and verify with it (neither defers GEMMs); every stdout equal to base.
of_all() {
    local prog=$BUILD/programs/output_fold m
    run_mode base "$prog" "$OF_STEPS" "$1"
    check "base run exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    learn_mode fold -- "$prog" "$OF_STEPS" "$1"
    learn_mode of TRANSFOLD_OUTPUT_FOLD=1 -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_args TRANSFOLD_OUTPUT_FOLD=1 TRANSFOLD_POLICY=args -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_log TRANSFOLD_OUTPUT_FOLD=1 TRANSFOLD_MODE=log -- "$prog" "$OF_STEPS" "$1"
    learn_mode of_verify TRANSFOLD_OUTPUT_FOLD=1 TRANSFOLD_VERIFY=1 -- "$prog" "$OF_STEPS" "$1"
    for m in fold of of_args of_log of_verify; do same_as_base "$m"; done
    for m in fold of_log of_verify; do expect_events "$m" gemm_deferred 0; expect_events "$m" output_fold 0; done
    check "of_verify: no mismatch" 0 "$(count_events verify '.result != "equal"' of_verify)"
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
        "$(jq -c 'select((.event == "drop" or .event == "materialize") and .rows == 12)' "$CASE_DIR/of.log" | wc -l)"
    check "of: most C's are never written" yes \
        "$([ "$(count_events drop '.rows == 12 and .key == "dst_freed"' of)" -ge $((OF_STEPS - 1)) ] && echo yes || echo no)"
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
    expect_events of materialize "$OF_STEPS" '.rows == 12 and .producer == "cublasSgemm_v2"'
    expect_events of drop 0 '.rows == 12'
}

case_output_fold_overwrite() { # A overwritten before the transpose: the GEMM runs first
    of_all overwrite
    expect_events of output_fold 0
    expect_events of materialize "$OF_STEPS" '.rows == 12 and .key == "src_overwritten" and .trigger == "cudaMemset"'
}
