# Hardening cases (issue 10): inputs that used to change a program's
# results, crash it, or lose data silently with transfold loaded. Helpers:
# lib.sh and cases.sh.

# ---- exact folds only -------------------------------------------------------

case_hard_scale_neg1() { # -1 into alpha would turn +0 results into -0
    run_all hardening scale_neg1
    untouched
    refused transpose 1
    expect_events fold refuse 1 '.reason | test("TRANSFOLD_SCALES=exact")'
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

# ---- device pointer mode scalars are reads ----------------------------------

case_hard_devptr_gemm_alpha() { # alpha inside the pending Wt: replayed before the GEMM
    run_all hardening devptr_gemm_alpha
    materialized cublasSgeam 1 "cublasSgeam $SGEMM"
    expect_events fold materialize 1 '.reason | test("destination read by cublasSgemm")'
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
