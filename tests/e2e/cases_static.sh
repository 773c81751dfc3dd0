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

# ---- programs built with nvcc's default static runtime ----------------------
# The CUDA 13 static runtime reaches the stand-in's libcuda only through
# cuGetProcAddress and cuGetExportTable (README, "The CPU stand-in"), and
# transfold reaches it only through the driver and cuBLAS routes. Each static
# twin (build/programs/static/<name>) must behave as its -cudart shared build.

# static_twin PROG ARGS...: the static build in every mode (run_all), then
# against the shared build: the same stdout and exit status without
# transfold, and in each fold mode the same transfold events. No export
# table slot the stand-in does not know was called.
static_twin() {
    local prog=$1 shared=$CASE_DIR/shared m ev
    shift
    run_all "static/$prog" "$@"
    mkdir -p "$shared"
    for m in base $FOLD_MODES; do CASE_DIR=$shared run_mode "$m" "$BUILD/programs/$prog" "$@"; done
    if cmp -s "$shared/base.out" "$CASE_DIR/base.out"; then
        ok "base: stdout identical to the shared build's"
    else
        fail "base: stdout differs from the shared build's ($(diff "$shared/base.out" "$CASE_DIR/base.out" | head -3 | tr '\n' ' '))"
    fi
    check "base: exit status of the shared build" "$(cat "$shared/base.rc")" "$(cat "$CASE_DIR/base.rc")"
    for m in $FOLD_MODES; do
        for ev in transpose fold drop materialize refuse; do
            check "$m: '$ev' events as in the shared build" \
                "$(CASE_DIR=$shared count_events "$ev" true "$m")" "$(count_events "$ev" true "$m")"
        done
    done
    check "base: no unknown export-table slot called" 0 "$(grep -c unknown_slot_of "$CASE_DIR/base.trace")"
}

# static_demo: `make demo`'s program as nvcc builds it by default. Its
# timing line differs run to run; every other line equals the shared
# build's, in every mode, and the transpose folds into the GEMM. The one
# export table the static runtime asks for and can do without is refused,
# and the trace names it.
case_static_demo() {
    local mode shared=$CASE_DIR/shared
    for mode in $MODES; do run_mode "$mode" "$BUILD/programs/static/demo"; done
    mkdir -p "$shared"
    CASE_DIR=$shared run_mode base "$BUILD/programs/demo"
    check "base run exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    local want
    want=$(grep -v '^transfold-ab:' "$shared/base.out")
    for mode in $MODES; do
        check "$mode: stdout (timing aside) is the shared build's" "$want" "$(grep -v '^transfold-ab:' "$CASE_DIR/$mode.out")"
        check "$mode: exit status" 0 "$(cat "$CASE_DIR/$mode.rc")"
    done
    expect_line base "transfold-ab:" "^transfold-ab: transpose_gemm [0-9.]+$"
    folded cublasSgeam 1
    dropped 1
    check "base: the unknown export table is named in the trace" 1 \
        "$(grep -c '"op":"cuGetExportTable","unknown":"f8cff951-2146-8b4e-b9e2-fb469e7c0dd9"' "$CASE_DIR/base.trace")"
}

# The driver route: kernels the static runtime registered launch through
# cuLaunchKernel, their twins run, transfold folds the rule-matched ones.
case_static_kern_naive() { static_twin kern naive; folded "$K_NAIVE" 1; dropped 1; }
case_static_kern_bf16() { static_twin kern bf16; folded "$K_BF16" 1; dropped 1; }
case_static_kern_launch_api() { static_twin kern launch_api; folded "$K_NAIVE" 1; dropped 1; }
# eager module loading (the driver reads CUDA_MODULE_LOADING): the same
case_static_kern_eager() { CUDA_MODULE_LOADING=EAGER static_twin kern naive; folded "$K_NAIVE" 1; dropped 1; }
case_static_kern_capture() { static_twin kern capture; }
case_static_kern_readback() { static_twin kern readback; }
# A module the program loads itself (PTX), the driver reached three ways
# under a static runtime.
case_static_driver_procaddr() { static_twin driver procaddr "$BUILD/programs/nvf_transpose.ptx"; folded "$K_NVF" 1; dropped 1; }
case_static_driver_entrypoint() { static_twin driver entrypoint "$BUILD/programs/nvf_transpose.ptx"; folded "$K_NVF" 1; dropped 1; }
case_static_driver_dlsym() { static_twin driver dlsym "$BUILD/programs/nvf_transpose.ptx" launchex; folded "$K_NVF" 1; dropped 1; }
# The cuBLAS and cuBLASLt routes.
case_static_geam_two_gemms() { static_twin geam two_gemms; }
case_static_geam_batched() { static_twin geam batched_stacked; }
case_static_lt_plain() { static_twin lt plain; folded $LT_TRANSFORM 1; folds_to N T 1; dropped 1; }
case_static_lt_seed_bias() { static_twin lt seed_bias; }
# Threads, streams, graphs, process ends.
case_static_streams_per_thread() { static_twin streams per_thread; }
case_static_streams_set_stream() { static_twin streams set_stream; }
case_static_concurrency_capture_fold() { # verify skips it; no inject run (see streams_capture_fold)
    local MODES="base off log fold args verify" PRELOAD_MODES="off log fold args verify"
    static_twin concurrency capture_fold
    expect_events verify verify 1 '.result == "skipped" and .reason == "a stream capture is in progress"'
}
case_static_concurrency_host_func() { static_twin concurrency host_func; }
# transfold's own events (replay order, late marks) through the driver
case_static_concurrency_late_overwrite() { static_twin concurrency late_overwrite; }
case_static_concurrency_handle_thread() { static_twin concurrency handle_thread; }
case_static_lifecycle_atexit() { static_twin lifecycle atexit_readback; }
case_static_lifecycle_fork() { static_twin lifecycle fork_child; }
case_static_invalid_pending() { static_twin invalid pending; }
case_static_hardening_setget() { static_twin hardening setget_readback; }
case_static_hardening_exec_child() { static_twin hardening exec_child; }

# Programs that call cuBLAS and cuBLASLt the way NVIDIA's samples do, linked
# with libcudart_static: every result recomputed with numpy.
case_static_blas1() { static_twin blas1; numpy_check blas1_check.py base; numpy_check blas1_check.py fold; }
case_static_blas2() { static_twin blas2; numpy_check blas2_check.py base; }
case_static_blas3() { static_twin blas3; numpy_check blas3_check.py base; }
case_static_blas3x() { static_twin blas3x; numpy_check blas3x_check.py base; }
case_static_blas_ext() { static_twin blas_ext; numpy_check blas_ext_check.py base; }
case_static_blas_after_geam() { static_twin blas_after_geam; }
case_static_gemm_grouped() { static_twin gemm_grouped; numpy_check gemm_grouped_check.py base; }
case_static_lt_algo() { static_twin lt_algo; numpy_check lt_algo_check.py base; }
case_static_lt_batch_ptr() { static_twin lt_batch_ptr; numpy_check lt_batch_ptr_check.py base; }
case_static_lt_planar() { static_twin lt_planar; numpy_check lt_planar_check.py base; }
case_static_lt_block_scales() { SIMCUDA_CC=10.0 static_twin lt_blockscale; numpy_check lt_blockscale_check.py base; numpy_check lt_blockscale_check.py fold; }
case_static_lt_block128_scales() { static_twin lt_blockscale hopper; numpy_check lt_blockscale_check.py base; numpy_check lt_blockscale_check.py fold; }
case_static_lt_imma_orders() { static_twin lt_imma; numpy_check lt_imma_check.py base; numpy_check lt_imma_check.py fold; }
case_static_blas_queued() { static_twin blas_queued ordered; numpy_check blas_queued_check.py base; }

# export_tables: the slots of the driver's private interfaces that the CUDA
# 13 runtime does not exercise at start-up, called directly (the program
# says what each is); the transposes its modules launch are transfold's to
# defer and replay at the read back.
case_static_export_tables() {
    run_all export_tables
    local l
    for l in "unknown table -> 1, table untouched" "no table pointer -> 1" "runtime interface: 104 bytes" \
        "module from wrapper (slot 1): transpose right: 1" "module from fat binary (slot 8): transpose right: 1" \
        "slot 1 without a module pointer -> 1" "primary context (slot 2) is the retained one: 1" \
        "slot 2 for device 7 -> 101" "storage: get before put -> 400" \
        "storage: put on the current context, got back: 1" "storage: get after delete -> 400" \
        "storage: destroy callbacks at reset: 1" "storage: get after reset -> 400" \
        "integrity: 13000 -> 8ed383aa1f4cd1e83341181c03cb675c" "integrity: 13001 -> 8ed383aa1f4cd1e81841181c03cb675c" \
        "integrity: 13002 the same for the same inputs: 1, another for another time: 1" \
        "integrity: no result pointer -> 1"; do
        check "base: '$l'" 1 "$(grep -cxF -- "$l" "$CASE_DIR/base.out")"
    done
    check "base: the unknown table is named in the trace" 1 "$(grep -c '"unknown":"f8cff951-2146-8b4e-b9e2-fb469e7c0dd9"' "$CASE_DIR/base.trace")"
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" transpose 2
        expect_events "$m" materialize 2
    done
}
