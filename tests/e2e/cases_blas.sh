# Cases for the stand-in's BLAS beyond the GEMM family (issue 11): programs
# that call cuBLAS the way NVIDIA's samples do, their every result
# recomputed with numpy from the same inputs.

# numpy_check SCRIPT MODE: SCRIPT (tests/e2e/*_check.py) accepts MODE's
# stdout; its mismatches are printed as the failure.
numpy_check() {
    local py="" p out
    for p in python3 /usr/bin/python3; do
        "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
    done
    [ -n "$py" ] || { fail "$2: no python3 with numpy (scripts/ensure-deps.sh installs python3-numpy)"; return; }
    if out=$("$py" "$ROOT/tests/e2e/$1" "$CASE_DIR/$2.out" 2>&1); then
        ok "$2: every result agrees with numpy ($(grep -c '^ok' <<<"$out") checks)"
    else
        fail "$2: results differ from numpy: $(grep -v '^ok' <<<"$out" | head -3 | tr '\n' ' ')"
    fi
}

case_blas1_all() { # Level-1, every routine and type; untouched by transfold
    run_all blas1
    numpy_check blas1_check.py base
    numpy_check blas1_check.py fold
    expect_trace base cublasSaxpy 1
    expect_trace base cublasZdotc 1
    expect_trace base cublasDotcEx 1
    expect_trace base cublasIamaxEx_64 1
    expect_same_trace fold
}

case_blas3_all() { # Level-3 beyond GEMM, every routine and type; untouched by transfold
    run_all blas3
    numpy_check blas3_check.py base
    numpy_check blas3_check.py fold
    expect_trace base cublasStrsm 1
    expect_trace base cublasZher2k 1
    expect_trace base cublasCsymm 1
    expect_trace base cublasCherkEx 1
    expect_trace base cublasCgemmEx 1
    expect_same_trace fold
}

case_blas2_all() { # Level-2 beyond gemv, every routine and type; untouched by transfold
    run_all blas2
    numpy_check blas2_check.py base
    numpy_check blas2_check.py fold
    expect_trace base cublasDtbsv 1
    expect_trace base cublasZhpr2 1
    expect_trace base cublasCsyr2 1
    expect_same_trace fold
}

case_blas_after_geam() { # saxpy and syrk read a deferred geam transpose: it runs before them
    run_all blas_after_geam
    local m
    for m in $FOLD_MODES; do
        expect_trace "$m" cublasSgeam 1
        expect_events "$m" materialize 1 '.trigger | test("cublasSaxpy|simcublas_access")'
    done
}

case_blas_ext() { # Gauss complex GEMMs, packed conversions, emulation controls
    run_all blas_ext
    numpy_check blas_ext_check.py base
    numpy_check blas_ext_check.py fold
    expect_trace base cublasCgemm3mStridedBatched 1
    expect_trace base cublasZtrttp 1
    expect_same_trace fold
}

case_blas_gemm_grouped() { # grouped batched GEMMs, plain and Ex: one GEMM line a group
    run_all gemm_grouped
    numpy_check gemm_grouped_check.py base
    numpy_check gemm_grouped_check.py fold
    expect_trace base cublasSgemmGroupedBatched 2
    expect_trace base cublasGemmGroupedBatchedEx 2
    expect_same_trace fold
}

case_blas3_extensions() { # syrkx, herkx and the pointer-array trsmBatched
    run_all blas3x
    numpy_check blas3x_check.py base
    numpy_check blas3x_check.py fold
    expect_trace base cublasCherkx 1
    expect_trace base cublasDtrsmBatched 2
    expect_same_trace fold
}

case_blas_queued() { # host-computed cuBLAS calls run as their stream's work: values, host scalars, races seen
    run_all blas_queued ordered
    numpy_check blas_queued_check.py base
    numpy_check blas_queued_check.py fold
    run_mode base env SIMCUDA_ASYNC=1 SIMCUDA_RACE=report "$BUILD/programs/blas_queued" racy
    check "racy: exits 0" 0 "$(cat "$CASE_DIR/base.rc")"
    expect_stderr base 'simcuda race: (cublasSaxpy \(write, stream 0x[0-9a-f]+\) and cudaMemcpyAsync \(read|cudaMemcpyAsync \(read, stream 0x[0-9a-f]+\) and cublasSaxpy \(write)' 1
}
