# Cases for programs that reach the driver the way nvcc's default static
# runtime does: every entry point through cuGetProcAddress (issue 11).

# entry_points_all: every entry point the CUDA headers declare (the PFN
# typedefs of cuda*Typedefs.h, each version, both stream flags) resolves, as
# the static runtime requires of a driver; one the stand-in cannot do
# answers CUDA_ERROR_NOT_SUPPORTED (801) when called, and the same through
# transfold's cuGetProcAddress route.
case_entry_points_all() {
    local list=$CASE_DIR/entry_points.list
    # (every typedef, per-thread ones too, straight from the headers)
    cat "${CUDA_HOME:-/usr/local/cuda}"/include/cuda*Typedefs.h |
        grep -oE 'PFN_cu[A-Za-z0-9]+_v[0-9]+(_ptds|_ptsz)?[[:space:]]*\)' |
        sed -E 's/^PFN_//; s/(_ptds|_ptsz)?[[:space:]]*\)$//; s/_v([0-9]+)$/ \1/' | sort -u >"$list"
    check "header entry points listed" 1 "$([ "$(wc -l <"$list")" -gt 400 ] && echo 1 || echo 0)"
    run_all entry_points "$list" cuProfilerStart 4000
    expect_line base "round trip" "\\[63\\]=41fc0000$"
    local m
    for m in $MODES; do
        expect_line "$m" "entry points looked up" "failed lookups: 0$"
        expect_line "$m" "cuProfilerStart ->" "-> 801$"
    done
}

# static_demo_refused: the demo built as nvcc builds by default (static
# cudart) cannot start on the stand-in (its runtime needs private driver
# interfaces, README "The CPU stand-in"): its first runtime call fails with
# cudaErrorNotSupported, and it fails exactly so in every mode: transfold,
# reached through dlsym and cuGetProcAddress only, neither crashes nor
# changes it.
case_static_demo_refused() {
    local mode
    for mode in $MODES; do run_mode "$mode" "$BUILD/programs/static/demo"; done
    check "base: exits 2 (the program's own check)" 2 "$(cat "$CASE_DIR/base.rc")"
    expect_line base "FAIL line" "-> 801$"
    for mode in $PRELOAD_MODES; do
        if cmp -s "$CASE_DIR/base.out" "$CASE_DIR/$mode.out"; then
            ok "$mode: stdout identical to base"
        else
            fail "$mode: stdout differs from base"
        fi
        check "$mode: exit status" "$(cat "$CASE_DIR/base.rc")" "$(cat "$CASE_DIR/$mode.rc")"
    done
}
