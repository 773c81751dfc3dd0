# Hardening cases (issue 10): inputs that used to change a program's
# results, crash it, or lose data silently with transfold loaded. Helpers:
# lib.sh and cases.sh.

# ---- exact folds only -------------------------------------------------------

case_hard_scale_neg1() { # -1 into alpha would turn +0 results into -0
    run_all hardening scale_neg1
    untouched
    refused transpose 1
    expect_events fold refuse 1 '(.reason | test("TRANSFOLD_SCALES=exact")) and .key == "scale_not_one" and .class == "scale"'
}

case_hard_scale_2_overflow() { # 2 * (big - big) = 0, but (2 big) - (2 big) = NaN
    run_all hardening scale_2_overflow
    untouched
    refused transpose 1
}

case_hard_scale_pow2_knob() { # the opt-in folds powers of two, and says it is not exact
    TRANSFOLD_SCALES=pow2 run_all geam scale_2
    folded cublasSgeam 1
    expect_summary fold 'scales pow2 \(not bitwise exact\)'
}

case_hard_verify_exact() { # verify compares bitwise on the stand-in, which asks for it: -1's -0 is caught
    local prog=$BUILD/programs/hardening
    run_mode base "$prog" scale_neg1
    TRANSFOLD_SCALES=pow2 run_mode verify "$prog" scale_neg1
    expect_events verify verify 1 '.result == "MISMATCH"'
    check "verify: the unfolded result kept" yes "$(cmp -s "$CASE_DIR/base.out" "$CASE_DIR/verify.out" && echo yes)"
    TRANSFOLD_SCALES=pow2 TRANSFOLD_VERIFY_EXACT=0 run_mode verify "$prog" scale_neg1
    expect_events verify verify 1 '.result == "equal"'
    TRANSFOLD_SCALES=pow2 TRANSFOLD_VERIFY_EXACT=yes run_mode verify "$prog" scale_neg1
    expect_stderr verify 'TRANSFOLD_VERIFY_EXACT=yes is not one of 0, 1' 1
}

# ---- device pointer mode scalars are reads ----------------------------------

case_hard_devptr_gemm_alpha() { # alpha inside the pending Wt: replayed before the GEMM
    run_all hardening devptr_gemm_alpha
    materialized cublasSgeam 1 "cublasSgeam $SGEMM"
    expect_events fold materialize 1 '(.reason | test("destination read by cublasSgemm")) and .key == "dst_read"'
}

case_hard_devptr_geam_alpha() { # the same for a plain geam's alpha
    run_all hardening devptr_geam_alpha
    materialized cublasSgeam 1 "cublasSgeam cublasSgeam"
}

# ---- GEMMs cuBLAS rejects are not described ----------------------------------

case_hard_gemmex_invalid() { # 64F compute on f32 data: passed through untouched
    run_all hardening gemmex_invalid
    expect_line base "cublasGemmEx" '-> 15$'
    local m
    for m in log $FOLD_MODES; do
        expect_events "$m" fold 0
        expect_events "$m" refuse 0
        expect_events "$m" materialize 0
    done
    dropped 1
}

# ---- parameter bytes are scanned at every offset ------------------------------

K_PACKED=kernel:_Z16transpose_packed11packed_args

case_hard_packed_kernel() { # output pointer at byte 1 of a packed record: verify replays into scratch
    run_all hardening packed_kernel
    folded "$K_PACKED" 1
    dropped 1
    expect_events verify verify 1 '.result == "equal"'
}

# ---- configuration and files --------------------------------------------------

case_hard_exec_child() { # the log and summary are close-on-exec
    run_all hardening exec_child
    expect_line fold "inherited" 'files: 0$'
}

case_hard_rules_directory() { # TRANSFOLD_RULES naming a directory: one line, pass-through
    # shellcheck disable=SC2034 # read by run_mode (lib.sh)
    local RULES=$CASE_DIR
    run_all geam two_gemms
    local m
    for m in log $FOLD_MODES; do
        expect_stderr "$m" "^transfold: TRANSFOLD_RULES: .*: cannot read rules file: is a directory; running as pass-through$" 1
        expect_same_trace "$m"
    done
}

case_hard_log_full() { # a log that cannot be written: said once, the program runs on
    run_mode base "$BUILD/programs/geam" two_gemms
    (cd "$CASE_DIR" && env LD_LIBRARY_PATH="$BUILD/sim" LD_PRELOAD="${SAN_PRELOAD:+$SAN_PRELOAD:}$BUILD/libtransfold.so" TRANSFOLD_LOG=/dev/full \
        TRANSFOLD_SUMMARY=none timeout 60 "$BUILD/programs/geam" two_gemms >fold.out 2>fold.err)
    check "fold: exits 0" 0 "$?"
    check "fold: stdout identical to base" "$(cat "$CASE_DIR/base.out")" "$(cat "$CASE_DIR/fold.out")"
    expect_stderr fold '^transfold: TRANSFOLD_LOG: write failed \(No space left on device\); later TRANSFOLD_LOG output is lost$' 1
}

case_hard_secure_getenv() { # paths come from secure_getenv: none in a setuid program
    local undefined
    undefined=$(nm -D --undefined-only "$BUILD/libtransfold.so" 2>/dev/null | awk '{print $2}' | sed 's/@.*//')
    check "libtransfold.so does not read the environment with getenv" "" "$(grep -xF getenv <<<"$undefined")"
    check "libtransfold.so reads it with secure_getenv" secure_getenv "$(grep -xF secure_getenv <<<"$undefined")"
}

# ---- every cuBLAS entry point that touches memory -----------------------------

case_hard_setget_readback() { # cublasGetMatrix reads Wt: replayed after the GEMM, before the copy
    run_all hardening setget_readback
    local m
    for m in $FOLD_MODES; do
        expect_events "$m" fold 1
        expect_events "$m" materialize 1 '.trigger == "cublasGetMatrix"'
        expect_run "$m" "$SGEMM cublasSgeam cublasGetMatrix"
    done
}

case_hard_setget_src_write() { # cublasSetVector rewrites W: replayed before it
    run_all hardening setget_src_write
    materialized cublasSgeam 1 "cublasSgeam cublasSetVector"
}

case_hard_setget_dst_overwrite() { # cublasSetMatrixAsync rewrites all of Wt: never run
    run_all hardening setget_dst_overwrite
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 0
        expect_events "$m" drop 1 '.reason | test("cublasSetMatrixAsync")'
        expect_events "$m" materialize 0
    done
}

case_hard_cgemv() { # a conjugate transpose folded into cublasCgemv
    run_all hardening cgemv
    folded cublasCgeam 1
    folds_to N C 1
}

case_hard_cublas_coverage() { # every entry point of the headers: modelled, unknown work, or host-only
    local defined names missing="" host_re n=0
    defined=$(nm -D --defined-only "$BUILD/libtransfold.so" 2>/dev/null | awk '{print $3}' | sed 's/@.*//')
    host_re="^($(grep -v '^#' "$ROOT/preload/tables/cublas_host_only.txt" | grep . | sed 's/\*/.*/g' | paste -sd'|' -))\$"
    # an extraction of its own, independent of the generator's parser
    local inc=${CUDA_HOME:-/usr/local/cuda}/include
    names=$(cat "$inc/cublas_api.h" "$inc/cublasLt.h" | tr '\n' ' ' |
        grep -oE 'CUBLASWINAPI +cublas[A-Za-z0-9_]+' | awk '{print $2}' | sort -u)
    for name in $names; do
        n=$((n + 1))
        grep -qxF "$name" <<<"$defined" && continue
        [[ $name =~ $host_re ]] && continue
        missing+=" $name"
    done
    check "headers declare entry points" yes "$([ "$n" -gt 500 ] && echo yes || echo no)"
    check "every header entry point is hooked or host-only" "" "$missing"
    local unknown
    unknown=$(grep -c '^HOOK' "$BUILD/preload/gen/hooks_cublas_gen.def")
    check "unknown-work hooks generated" yes "$([ "$unknown" -gt 300 ] && echo yes || echo no)"
}

# ---- sanitizers ----------------------------------------------------------------

# A program built with ASan or TSan (its runtime linked in, or preloaded
# before transfold) starts, folds and exits cleanly under transfold: the
# runtime resolves its interceptors through transfold's dlsym while it is
# not yet initialised.
case_hard_sanitized_program() {
    local cc=${CC:-cc} kind bin inc=${CUDA_HOME:-/usr/local/cuda}
    run_mode base "$BUILD/programs/sanitized"
    for kind in address thread; do
        # under make sanitize libtransfold.so needs its own runtime: only that kind
        [[ -n ${SAN_PRELOAD:-} && $SAN_PRELOAD != *"lib${kind:0:1}san"* ]] && continue
        bin=$CASE_DIR/sanitized-$kind
        rm -f "$CASE_DIR/$kind".* # the log is appended to
        if ! "$cc" -g -fsanitize=$kind -I"$inc/include" -I"$ROOT/tests/programs" -o "$bin" \
            "$ROOT/tests/programs/sanitized.c" -L"$inc/lib64" -lcudart -lcublas -lcublasLt 2>"$bin.build"; then
            fail "$kind: cannot build the sanitized program: $(head -3 "$bin.build")"
            continue
        fi
        local rt=${SAN_PRELOAD:-$("$cc" -print-file-name="lib${kind:0:1}san.so")}
        (cd "$CASE_DIR" && env LD_LIBRARY_PATH="$BUILD/sim" LD_PRELOAD="$rt:$BUILD/libtransfold.so" \
            TRANSFOLD_LOG="$CASE_DIR/$kind.log" TRANSFOLD_SUMMARY=none ASAN_OPTIONS=detect_leaks=0 \
            timeout 60 "$bin" >"$kind.out" 2>"$kind.err") 2>/dev/null # (a crash shows in the status)
        check "$kind: exits 0" 0 "$?"
        check "$kind: stdout identical to base" "$(cat "$CASE_DIR/base.out")" "$(cat "$CASE_DIR/$kind.out")"
        expect_events "$kind" fold 1
    done
}
