# End-to-end programs: real CUDA programs built against the real toolkit
# (nvcc -cudart shared), plus C programs that reach the driver themselves, and
# the CPU twins of their kernels in one library.
PROG_CU   := $(wildcard tests/programs/*.cu)
PROG_C    := $(wildcard tests/programs/*.c)
PROG_BIN  := $(PROG_CU:tests/programs/%.cu=$(BUILD)/programs/%) $(PROG_C:tests/programs/%.c=$(BUILD)/programs/%)
TWIN_SRC  := $(wildcard tests/programs/twins/*.c)
TWIN_LIB  := $(BUILD)/programs/libtwins.so
NVCCFLAGS ?= -O2 -cudart shared -Xcompiler -Wall

$(BUILD)/programs/%: tests/programs/%.cu $(wildcard tests/programs/*.h tests/programs/*.cuh) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -Itests/programs -o $@ $< -lcublas -lcublasLt

$(BUILD)/programs/%: tests/programs/%.c $(wildcard tests/programs/*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CUDA_INC) -Itests/programs -o $@ $< -L$(CUDA_HOME)/lib64 -lcudart -lcublas -lcublasLt \
	  -L$(CUDA_HOME)/lib64/stubs -lcuda -ldl -lm

# Modules that C programs load with cuModuleLoadData (PTX; any image will do
# on the stand-in, a real driver JIT-compiles it). A source's
# "// simcuda-variant: ID" line is kept as a PTX comment: the stand-in then
# runs that module's own twins (two modules may export one kernel name).
PROG_PTX  := $(patsubst tests/programs/modules/%.cu,$(BUILD)/programs/%.ptx,$(wildcard tests/programs/modules/*.cu))
$(BUILD)/programs/%.ptx: tests/programs/modules/%.cu | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -o $@ $<
	grep -h '^// simcuda-variant: ' $< >>$@ || true

$(TWIN_LIB): $(TWIN_SRC) tests/sim/simcuda.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -Itests/sim -o $@ $(TWIN_SRC) -lm

programs: $(PROG_BIN) $(PROG_PTX) $(TWIN_LIB)
.PHONY: programs

# Static twins: the same programs as nvcc builds them by default (static
# cudart; C programs with libcudart_static), in build/programs/static/. The
# stand-in's libcuda serves the static runtime (cuGetExportTable, README
# "The CPU stand-in"); tests/e2e/cases_static.sh compares each with its
# shared build.
PROG_STATIC_CU := demo kern geam lt streams concurrency lifecycle invalid hardening
PROG_STATIC_C  := driver blas1 blas2 blas3 blas3x blas_ext blas_after_geam gemm_grouped lt_algo lt_batch_ptr lt_planar \
                  lt_blockscale lt_imma blas_queued
PROG_STATIC    := $(addprefix $(BUILD)/programs/static/,$(PROG_STATIC_CU) $(PROG_STATIC_C))

$(BUILD)/programs/static/%: tests/programs/%.cu $(wildcard tests/programs/*.h tests/programs/*.cuh) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -Xcompiler -Wall -Itests/programs -o $@ $< -lcublas -lcublasLt

$(BUILD)/programs/static/%: tests/programs/%.c $(wildcard tests/programs/*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CUDA_INC) -Itests/programs -o $@ $< -L$(CUDA_HOME)/lib64 -lcudart_static -lcublas -lcublasLt \
	  -L$(CUDA_HOME)/lib64/stubs -lcuda -ldl -lrt -lpthread -lm
programs: $(PROG_STATIC)
