# Cases for the stand-in's cuBLASLt API beyond the matmul itself (issue 11):
# algorithms, their capabilities and configuration, emulation descriptors.
# numpy_check is in cases_blas.sh.

case_lt_algo_ids() { # every id from GetIds and the heuristic runs; refusals keep their status
    run_all lt_algo
    numpy_check lt_algo_check.py base
    numpy_check lt_algo_check.py fold
    expect_trace base cublasLtMatmul 8
    expect_same_trace fold
}

case_lt_batch_pointer_array() { # per-batch matrices through device pointer arrays
    run_all lt_batch_ptr
    numpy_check lt_batch_ptr_check.py base
    numpy_check lt_batch_ptr_check.py fold
    expect_trace base cublasLtMatmul 1
    expect_same_trace fold
}

case_lt_planar_complex() { # planar complex A, B, C, D with batch strides in real sub-elements
    run_all lt_planar
    numpy_check lt_planar_check.py base
    numpy_check lt_planar_check.py fold
    expect_trace base cublasLtMatmul 1
    expect_same_trace fold
}

case_lt_block_scales() { # MXFP8/NVFP4 block scales, block-quantized D with D_OUT factors, per-row/column scales
    SIMCUDA_CC=10.0 run_all lt_blockscale
    numpy_check lt_blockscale_check.py base
    numpy_check lt_blockscale_check.py fold
    expect_trace base cublasLtMatmul 4
    expect_same_trace fold
}

case_lt_block128_scales() { # Hopper's fp32 block scales: VEC128_32F and BLK128x128_32F A and B (SIMCUDA_CC 9.0)
    run_all lt_blockscale hopper
    numpy_check lt_blockscale_check.py base
    numpy_check lt_blockscale_check.py fold
    expect_trace base cublasLtMatmul 3
    expect_same_trace fold
}

case_lt_imma_orders() { # int8 matmul through COL32 / COL4_4R2_8C / COL32_2R_4R4 transforms, and in column order
    run_all lt_imma
    numpy_check lt_imma_check.py base
    numpy_check lt_imma_check.py fold
    expect_trace base cublasLtMatmul 3
    expect_trace base cublasLtMatrixTransform 7
    # the int8 A^T folded into the TN matmul would make it NN, which the
    # integer matmul does not run: the library refuses, the transpose runs
    expect_events fold refuse 1 '.class == "library" and .key == "library_rejected"'
    expect_events fold materialize 1
    expect_same_trace fold
}
