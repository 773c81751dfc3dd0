# The end-to-end cases: one function a case, named case_<name>, run in the
# order written. Each runs a program in every mode (run_all: stdout, exit
# status and off/log traces compared with base) and then states what the
# trace and the event log must show. Helpers: lib.sh.

# Trace tokens (the stand-in names each operation after the API called).
SGEMM=cublasSgemm
GEMMEX=cublasGemmEx # traced under its own name, though the stand-in runs it through cublasLtMatmul
MEMCPY=cudaMemcpy
K_NAIVE=kernel:_Z15transpose_naivePfPKfii
K_TILED=kernel:_Z15transpose_tiledPfPKfii
K_BATCHED=kernel:_Z17transpose_batchedPfPKfiii
K_BF16=kernel:_Z14transpose_bf16P13__nv_bfloat16PKS_ii
K_HALF=kernel:_Z14transpose_halfP6__halfPKS_ii
K_SCALE=kernel:_Z9scale_f32Pfif
K_NVF=kernel:_ZN11CudaCodeGen7kernel1ENS_6TensorIfLi2ELi2EEES1_
LT_TRANSFORM=cublasLtMatrixTransform
LT_MATMUL=cublasLtMatmul

# dropped N [MODES]: N records died without running, at a free (not at exit).
dropped() {
    local mode
    for mode in ${2:-$FOLD_MODES}; do expect_events "$mode" drop "$1" '(.reason | test("exit") | not)'; done
}
# refused WHAT N [MODES]: N refuse events of that kind ("transpose", "operand").
refused() {
    local mode
    for mode in ${3:-log $FOLD_MODES}; do expect_events "$mode" refuse "$2" ".what == \"$1\""; done
}
# folds_to FROM TO N [MODES]: N operands folded from op FROM to op TO.
folds_to() {
    local mode
    for mode in ${4:-log $FOLD_MODES}; do expect_events "$mode" fold "$3" ".op_from == \"$1\" and .op_to == \"$2\""; done
}

# operand_refused_once: a GEMM operand could not fold; its record was
# replayed once before the GEMM, in log and both fold modes.
operand_refused_once() {
    local m
    for m in log $FOLD_MODES; do
        expect_events "$m" fold 0
        expect_events "$m" refuse 1 '.what == "operand"'
        expect_events "$m" materialize 1
    done
}

# ---- issue 2: geam transposes and the classic cuBLAS GEMMs -----------------

case_geam_two_gemms() { # read as B and as A, then freed
    run_all geam two_gemms
    folded cublasSgeam 2
    folds_to N T 2
    dropped 1
    expect_summary fold 'never run 1'
    expect_summary fold 'operands folded 2'
}

case_geam_readback() { # exactly one replay, after the GEMM, before the copy
    run_all geam readback
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 1
        expect_events "$m" fold 1
        expect_events "$m" materialize 1 '.trigger | test("Memcpy")'
        expect_run "$m" "$SGEMM cublasSgeam $MEMCPY"
    done
    expect_events log materialize 1
}

case_geam_signed_zero() { # a plain transpose copies -0 as -0 (in the stand-in too), folded or not
    run_all geam signed_zero
    check "base: every negative zero transposed" 1 "$(grep -cE '^negative zeros: W ([1-9][0-9]*), Wt \1$' "$CASE_DIR/base.out")"
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1 '.trigger | test("Memcpy")'
    done
}

case_geam_src_overwrite() { # W rewritten by cudaMemcpy: replayed right before the write
    run_all geam src_overwrite
    materialized cublasSgeam 1 "cublasSgeam $MEMCPY"
    local m
    for m in $FOLD_MODES; do
        expect_same_trace "$m"
        expect_events "$m" materialize 1 '.trigger | test("Memcpy")'
    done
}

case_geam_arena() { # issue 20: conflicts on bytes inside one allocation; whole overwrite drops
    run_all geam arena
    folded cublasSgeam 1
    dropped 1
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" materialize 0
        expect_events "$m" drop 1 '.key == "dst_overwritten"'
    done
}

case_geam_arena_partial() { # the same, Wt overwritten in part: it runs once, before that copy
    run_all geam arena_partial
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1 '.key == "dst_partly_overwritten"'
    done
}

case_geam_subblock() { # Wt[2:10, 3:15] read with Wt's ld
    run_all geam subblock
    folded cublasSgeam 1
    dropped 1
}

case_geam_scale_2() { # folded only under the opt-in TRANSFOLD_SCALES=pow2
    TRANSFOLD_SCALES=pow2 run_all geam scale_2
    folded cublasSgeam 1
    dropped 1
}

case_geam_scale_half() {
    TRANSFOLD_SCALES=pow2 run_all geam scale_0.5
    folded cublasSgeam 1
    dropped 1
}

case_geam_scale_0_3() { # not a power of two: the transpose runs as written
    run_all geam scale_0.3
    untouched
    refused transpose 1
}

case_geam_ld_mismatch() { # Wt read with ld 8: refused, replayed before the GEMM
    run_all geam ld_mismatch
    materialized cublasSgeam 1 "cublasSgeam $SGEMM"
    refused operand 1
}

case_geam_padded_ld() { # ldc 20 on both sides: still folds
    run_all geam padded_ld
    folded cublasSgeam 1
    dropped 1
}

case_geam_device_pointer_mode() { # alpha/beta in device memory: not deferred
    run_all geam devptr
    untouched
    refused transpose 1
}

case_geam_never_freed() { # dropped at exit, never run
    run_all geam never_freed
    folded cublasSgeam 1
    local m
    for m in $FOLD_MODES; do expect_events "$m" drop 1 '(.reason | test("exit")) and .key == "exit_never_freed"'; done
}

case_geam_handle_destroyed() { # the replay's handle goes away first
    run_all geam handle_destroyed
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 1
        expect_events "$m" fold 1
        expect_events "$m" materialize 1 '(.trigger // "" | test("Memcpy") | not)'
    done
}

case_geam_kernel_unrelated() { # unknown launch: strict replays first, args folds
    run_all geam kernel_unrelated
    materialized cublasSgeam 1 "cublasSgeam $K_SCALE $SGEMM" fold
    expect_same_trace fold
    folded cublasSgeam 1 args
}

case_geam_kernel_writes_src() { # a launch writes W: replayed first under both policies
    run_all geam kernel_writes_src
    materialized cublasSgeam 1 "cublasSgeam $K_SCALE $SGEMM"
    expect_same_trace fold
    expect_same_trace args
}

case_geam_batched_shared() { # cublasSgemmStridedBatched, Wt with batch stride 0
    run_all geam batched_shared
    folded cublasSgeam 1
    dropped 1
}

case_geam_batched_stacked() { # cublasGemmStridedBatchedEx over 3 stacked slices of Wt
    run_all geam batched_stacked
    folded cublasSgeam 1
    dropped 1
}

case_geam_gemmex() {
    run_all geam gemmex
    folded cublasSgeam 1
    folds_to T N 1
}

case_geam_sgemmex() {
    run_all geam sgemmex
    folded cublasSgeam 1
    folds_to T N 1
}

case_geam_sgemv() {
    run_all geam sgemv
    folded cublasSgeam 1
    folds_to N T 1
}

case_geam_64() {
    run_all geam s64
    folded cublasSgeam_64 1
}

case_geam_seed_f32() { # the seed's pattern through cublasGemmEx
    run_all geam seed_f32
    folded cublasSgeam 1
    dropped 1
}

case_geam_dgemm() {
    run_all geam dgemm
    folded cublasDgeam 2
    folds_to N T 1
    folds_to T N 1
}

case_geam_dgemv() {
    run_all geam dgemv
    folded cublasDgeam 1
    folds_to T N 1
}

# Complex: conjugate transposes fold N->C and C->N and refuse T; plain
# transposes fold N->T and T->N and refuse C.
# complex_folds TYPE GEAM-OP GEMM-OP OP-AFTER / complex_refused TYPE GEAM-OP GEMM-OP
complex_folds() {
    local T=${1^^}
    run_all geam_complex "$1" "$2" "$3"
    folded "cublas${T}geam" 1
    folds_to "$3" "$4" 1
}
complex_refused() {
    local T=${1^^}
    run_all geam_complex "$1" "$2" "$3"
    materialized "cublas${T}geam" 1 "cublas${T}geam cublas${T}gemm"
    refused operand 1
}
case_complex_c_conj_N() { complex_folds c C N C; }
case_complex_c_conj_C() { complex_folds c C C N; }
case_complex_c_conj_T() { complex_refused c C T; }
case_complex_z_conj_N() { complex_folds z C N C; }
case_complex_z_conj_C() { complex_folds z C C N; }
case_complex_z_conj_T() { complex_refused z C T; }
case_complex_c_plain_T() { complex_folds c T T N; }
case_complex_z_plain_N() { complex_folds z T N T; }
case_complex_z_plain_C() { complex_refused z T C; }

case_invalid_idle() { # error statuses with nothing pending: identical everywhere
    run_all invalid idle
    untouched
    expect_line base "cublasSgemm(NULL" '-> [1-9]'
}

case_invalid_pending() { # the same errors while a transpose is pending
    run_all invalid pending
    check "base: a pending transpose is made" 1 "$(tokens base | grep -cxF cublasSgeam)"
}

# ---- issue 3: transpose kernels, every launch route ---------------------

case_kern_naive() { run_all kern naive; folded "$K_NAIVE" 1; dropped 1; }
case_kern_tiled() { run_all kern tiled; folded "$K_TILED" 1; dropped 1; }
case_kern_batched() { run_all kern batched; folded "$K_BATCHED" 1; dropped 1; }
case_kern_bf16_seed() { run_all kern bf16; folded "$K_BF16" 1; dropped 1; }
case_kern_half_hgemm() { run_all kern half; folded "$K_HALF" 1; dropped 1; }

case_kern_launch_api() { run_all kern launch_api; folded "$K_NAIVE" 1; dropped 1; }
case_kern_launch_exc() { run_all kern launch_exc; folded "$K_NAIVE" 1; dropped 1; }

case_kern_capture() { # pending when a capture begins: replayed before it, not into the graph
    run_all kern capture
    materialized "$K_NAIVE" 1 "$K_NAIVE $K_SCALE" fold
    expect_events fold materialize 1 '.reason == "stream capture begins" and .key == "capture_begins"'
}

case_kern_readback() {
    run_all kern readback
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1
        expect_run "$m" "$GEMMEX $K_NAIVE $MEMCPY"
    done
}

case_kern_writes_src() { # replayed before the writer under both policies
    run_all kern writes_src
    materialized "$K_NAIVE" 1 "$K_NAIVE $K_SCALE $GEMMEX"
    expect_same_trace fold
    expect_same_trace args
}

case_kern_unrelated() { # strict: replayed before the unknown launch; args: folded
    run_all kern unrelated
    materialized "$K_NAIVE" 1 "$K_NAIVE $K_SCALE $GEMMEX" fold
    expect_same_trace fold
    folded "$K_NAIVE" 1 args
}

case_rules_malformed() { # one message with file and line, then pass-through
    # shellcheck disable=SC2034 # read by run_mode (dynamic scope)
    local RULES=$ROOT/tests/e2e/bad-rules/malformed.rules
    run_all kern naive
    untouched
    local m
    for m in log $FOLD_MODES; do expect_stderr "$m" 'malformed\.rules:4' 1; done
}

case_driver_dlsym() { run_all driver dlsym "$BUILD/programs/nvf_transpose.ptx"; folded "$K_NVF" 1; dropped 1; }
case_driver_dlsym_drvmem() {
    run_all driver dlsym "$BUILD/programs/nvf_transpose.ptx" drvmem
    folded "$K_NVF" 1
    dropped 1
}
case_driver_dlsym_launchex() {
    run_all driver dlsym "$BUILD/programs/nvf_transpose.ptx" launchex
    folded "$K_NVF" 1
    dropped 1
}
case_driver_procaddr() { run_all driver procaddr "$BUILD/programs/nvf_transpose.ptx"; folded "$K_NVF" 1; dropped 1; }
case_driver_entrypoint() {
    run_all driver entrypoint "$BUILD/programs/nvf_transpose.ptx"
    folded "$K_NVF" 1
    dropped 1
}

case_hooks_exported() { # the preload defines the hooks of every route
    local sym missing=""
    local defined
    defined=$(nm -D --defined-only "$BUILD/libtransfold.so" 2>/dev/null | awk '{print $3}' | sed 's/@.*//')
    for sym in dlsym cuGetProcAddress cuGetProcAddress_v2 cudaGetDriverEntryPoint cudaGetDriverEntryPointByVersion \
        cuLaunchKernel cuLaunchKernelEx cuLaunchCooperativeKernel cudaLaunchKernel cudaLaunchKernelExC \
        __cudaLaunchKernel __cudaRegisterFunction __cudaGetKernel cudaMalloc cudaFree cudaMemcpy cuMemAlloc_v2 \
        cuMemFree_v2 cublasSgeam cublasSgemm_v2 cublasGemmEx cublasGemmStridedBatchedEx cublasLtMatmul \
        cublasLtMatrixTransform; do
        grep -qxF "$sym" <<<"$defined" || missing+=" $sym"
    done
    check "libtransfold.so exports every hook" "" "$missing"
}

case_hooks_resolvers() { # dlsym / cuGetProcAddress / entry points lead to our wrappers
    local mode
    for mode in $MODES; do run_mode "$mode" "$BUILD/programs/hooks"; done
    for mode in $MODES; do check "$mode: exits 0" 0 "$(cat "$CASE_DIR/$mode.rc")"; done
    expect_line base "dlsym(libcuda, cuLaunchKernel)" ' libcuda\.so\.1\+'
    for mode in log fold args; do
        local label
        for label in "dlsym(libcuda, cuLaunchKernel)" "dlsym(libcuda, cuLaunchKernelEx)" \
            "dlsym(libcuda, cuMemAlloc_v2)" "dlsym(libcuda, cuGetProcAddress_v2)" \
            "dlsym(libcudart, cudaLaunchKernel)" "dlsym(libcublas, cublasSgemm_v2)" "dlsym(libcublas, cublasSgeam)" \
            "dlsym(libcublasLt, cublasLtMatmul)" "cuGetProcAddress(cuLaunchKernel)" "cuGetProcAddress(cuMemAlloc)" \
            "cuGetProcAddress(cuGetProcAddress)" "cuGetProcAddress(cuLaunchKernel, ptds) via self" \
            "cudaGetDriverEntryPointByVersion(cuLaunchKernel)" "cudaGetDriverEntryPointByVersion(cuMemcpyHtoD)"; do
            expect_line $mode "$label" ' libtransfold\.so\+0x'
        done
        expect_same_lines $mode '^unrelated|status'
        expect_line $mode "unrelated cos lookups equal" ': 1 1 1$'
    done
}

# ---- issue 4: cuBLASLt -----------------------------------------------------

case_lt_seed_bias() { # PyTorch addmm: transform, then matmul with a bias epilogue
    run_all lt seed_bias
    folded $LT_TRANSFORM 1
    dropped 1
}
case_lt_seed_bias_kernel() { run_all lt seed_bias_kernel; folded "$K_BF16" 1; dropped 1; }
case_lt_plain() { run_all lt plain; folded $LT_TRANSFORM 1; folds_to N T 1; dropped 1; }
case_lt_row_order() { run_all lt row_order; folded $LT_TRANSFORM 1; dropped 1; }
case_lt_batched() { run_all lt batched; folded $LT_TRANSFORM 1; dropped 1; }
case_lt_own_heuristic() { run_all lt own_heuristic; folded $LT_TRANSFORM 1; dropped 1; }
case_lt_geam_consumer() { run_all lt geam_lt; folded cublasSgeam 1; dropped 1; }
case_lt_reused_desc() { run_all lt reused_desc; folded $LT_TRANSFORM 2; dropped 1; }

case_lt_reused_bias() { # the bias pointer aimed at a pending t by SetAttribute between calls
    run_all lt reused_bias
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1
        expect_run "$m" "$LT_TRANSFORM $LT_MATMUL"
    done
}

case_lt_transform_gemmex() { # folded once, though cuBLAS runs it through cublasLtMatmul
    run_all lt transform_gemmex
    folded $LT_TRANSFORM 1
    dropped 1
}

case_lt_desc_changed() { # descriptors destroyed/changed while pending: replay as issued
    run_all lt desc_changed
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1
        expect_run "$m" "$LT_MATMUL $LT_TRANSFORM $MEMCPY"
    done
}

case_lt_unsupported() { # no algorithm for the folded layouts: original call
    run_all lt unsupported
    materialized $LT_TRANSFORM 1 "$LT_TRANSFORM $LT_MATMUL"
}

# ---- streams: naming, lifetime, threads -----------------------------------

case_streams_destroyed_stream() { # the transpose's stream dies: it runs first, on it
    run_all streams destroyed_stream
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" "$K_NAIVE" 1
        expect_events "$m" materialize 1 '.trigger == "stream destroyed"'
        expect_run "$m" "$K_NAIVE $SGEMM"
    done
    expect_line fold "cudaGetLastError()" '-> 0$'
}

case_streams_legacy_alias() { # cudaStreamLegacy and stream 0 are one stream
    run_all streams legacy_alias
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 0
        expect_trace "$m" "$K_NAIVE" 0
        expect_events "$m" fold 2
        expect_events "$m" refuse 0
    done
}

case_streams_per_thread() { # two threads' per-thread streams are two streams
    run_all streams per_thread
    operand_refused_once
    local m
    for m in $FOLD_MODES; do expect_run "$m" "cublasSgeam $SGEMM"; done
}

case_streams_last_error() { # the program's unfetched error is still there at the end
    run_all streams last_error
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1
        expect_line "$m" "cudaGetLastError()" '-> 101$'
    done
}

case_streams_bad_launch() { # launches the driver rejects are not deferred: their errors stay theirs
    run_all streams bad_launch
    local m
    for m in log $FOLD_MODES; do
        expect_events "$m" transpose 0
        expect_events "$m" refuse 2 '.what == "transpose"'
    done
}

# ---- the ends of a process --------------------------------------------------

# summary_once MODE: the exit summary was written exactly once.
summary_once() {
    check "$1: one exit summary" 1 "$(grep -c '^transfold: mode' "$CASE_DIR/$1.summary" 2>/dev/null)"
}

case_lifecycle_atexit_readback() { # a program's exit handler reads Wt: replayed, not dropped first
    run_all lifecycle atexit_readback
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" materialize 1 '.trigger | test("Memcpy")'
        expect_events "$m" drop 0
        summary_once "$m"
    done
}

case_lifecycle_thread_exit() { # exit() from another thread: dropped once, one summary
    run_all lifecycle thread_exit
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" drop 1 '.reason | test("exit")'
        expect_trace "$m" cublasSgeam 0
        summary_once "$m"
    done
}

case_lifecycle_fork_child() { # the child of a fork neither replays nor writes the parent's summary
    run_all lifecycle fork_child
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" materialize 1
        summary_once "$m"
    done
}

case_streams_set_stream() { # the handle moves to another stream between transpose and GEMM
    run_all streams set_stream
    operand_refused_once
    local m
    for m in $FOLD_MODES; do
        expect_run "$m" "cublasSgeam $SGEMM"
        expect_line "$m" "handle still on s2" ': 1$'
    done
}
