# Cases: the driver calls PyTorch makes beyond launches and copies
# (tests/programs/torch_driver.c): the cudaMallocAsync backend's pool
# queries, torch.cuda.graph's capture queries and capture mode, and graph
# allocations. Every mode prints base's lines; these check the lines.

case_torch_pool() { # default pool: threshold, counters, trim, access; stream-ordered alloc and free
    run_all torch_driver pool
    local m line
    for m in base $PRELOAD_MODES; do
        for line in "release threshold kept" "used grows by the allocation" "reserved covers used" \
            "used back after the free" "high-water mark kept" "high-water mark reset" "own device reads and writes"; do
            expect_line "$m" "$line" ': 1$'
        done
        expect_line "$m" "opportunistic reuse" ': 0$'
        expect_line "$m" "byte read before the free" ': 7$'
    done
}

case_torch_capture() { # capture ids, relaxed cudaMalloc while capturing, node count, upload, replay
    run_all torch_driver capture
    local m
    for m in base $PRELOAD_MODES; do
        expect_line "$m" "capture 1 active" ': 1$'
        expect_line "$m" "cuMemAlloc in relaxed mode while capturing" ': 0$'
        expect_line "$m" "graph 1 nodes" ': 1$'
        expect_line "$m" "replay 1 wrote" ' 0x3f800001$'
        expect_line "$m" "capture ids differ" ': 1$'
        expect_line "$m" "cuMemAlloc in global mode while capturing refused" ': 1$'
        expect_line "$m" "that capture ends invalidated" ': 1$'
    done
}

case_torch_graphmem() { # a graph allocates its output (cudaMallocAsync under torch.cuda.graph); replays fill it
    run_all torch_driver graphmem
    local m
    for m in base $PRELOAD_MODES; do
        expect_line "$m" "replay 0 out" '\[0\]=40000000 \[255\]=40000000$'
        expect_line "$m" "replay 1 out" '\[0\]=40000000 \[255\]=40000000$'
    done
}

case_torch_runtime() { # the same through the runtime API
    run_all torch_driver runtime
    local m
    for m in base $PRELOAD_MODES; do
        expect_line "$m" "runtime: release threshold kept" ': 1$'
        expect_line "$m" "runtime: capturing with an id" ': 1$'
        expect_line "$m" "runtime: cudaMalloc in relaxed mode while capturing" ': 0$'
        expect_line "$m" "runtime: graph nodes" ': 1$'
        expect_line "$m" "runtime: replay wrote" ' 1$'
    done
}

case_torch_cublas_handle() { # PyTorch's cuBLAS handle used as its cuBLASLt handle: folded, twice per handle
    run_all lt cublas_handle
    folded cublasSgeam 4
    dropped 2
}

case_torch_poolfold() { # a transpose in a pool allocation, freed by cuMemFreeAsync: transfold sees the free
    run_all torch_driver poolfold
    folded cublasSgeam 2
    dropped 2
}
