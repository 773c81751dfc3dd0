# Cost of transfold: microbenchmarks against the stand-in (tests/bench/run.sh).
# Programs are real CUDA programs, like tests/programs; their kernels' CPU
# twins are in one library.
BENCH_DIR  := $(BUILD)/bench
BENCH_BIN  := $(patsubst tests/bench/%.cu,$(BENCH_DIR)/%,$(wildcard tests/bench/*.cu))
BENCH_TWIN := $(BENCH_DIR)/libtwins.so

$(BENCH_DIR)/%: tests/bench/%.cu tests/bench/bench.h tests/programs/common.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -cudart shared -Xcompiler -Wall -Itests/programs -o $@ $< -lcublas -lcublasLt \
	  -L$(CUDA_HOME)/lib64/stubs -lcuda

$(BENCH_TWIN): $(wildcard tests/bench/twins*.c) tests/sim/simcuda.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -Itests/sim -o $@ $(wildcard tests/bench/twins*.c)

.PHONY: bench bench-programs
bench-programs: $(BENCH_BIN) $(BENCH_TWIN)
bench: $(TRANSFOLD_SO) sim programs bench-programs
	@BUILD=$(BUILD) bash tests/bench/run.sh
