# Differential fuzzer (tests/fuzz/run.sh): random valid sequences of CUDA,
# cuBLAS and cuBLASLt calls, run on the stand-in without transfold and in
# each mode, outputs compared byte for byte. Its kernels are those of
# tests/programs (twins in $(TWIN_LIB)); it needs $(INJECT_SO) of e2e.mk.
FUZZ_BIN := $(BUILD)/fuzz/fuzz

$(FUZZ_BIN): tests/fuzz/fuzz.cu $(wildcard tests/fuzz/*.h tests/fuzz/*.cuh) tests/programs/common.h tests/programs/kernels.cuh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Itests/programs -o $@ $< -lcublas -lcublasLt

.PHONY: fuzz
fuzz: $(TRANSFOLD_SO) $(INJECT_SO) sim programs $(FUZZ_BIN)
	@BUILD=$(BUILD) bash tests/fuzz/run.sh
test: fuzz
