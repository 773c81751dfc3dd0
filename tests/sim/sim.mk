# The CPU stand-in: four libraries with the real sonames and version nodes.
# Sources: tests/sim/<lib>/*.c plus tests/sim/common/*.c (compiled into each,
# hidden). Exports: tests/sim/<lib>/exports.map (version script).
SIM_DIR    := $(BUILD)/sim
SIM_CFLAGS := $(CFLAGS) -fvisibility=default $(CUDA_INC) -Itests/sim -Itests/sim/common -I$(SIM_DIR)/gen
SIM_COMMON := $(wildcard tests/sim/common/*.c)
SIM_HDRS   := $(filter-out tests/sim/aten/%,$(wildcard tests/sim/*.h tests/sim/common/*.h tests/sim/*/*.h))

define sim_lib # 1=folder 2=soname 3=extra link flags
$(SIM_DIR)/$(2): $(wildcard tests/sim/$(1)/*.c) $(SIM_COMMON) tests/sim/$(1)/exports.map $(SIM_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(SIM_DIR)
	$(CC) $(SIM_CFLAGS) -shared -Wl,-soname,$(2) -Wl,--version-script=tests/sim/$(1)/exports.map \
	  -o $$@ $(wildcard tests/sim/$(1)/*.c) $(SIM_COMMON) $(3) -ldl -lpthread -lm
	ln -sf $(2) $(SIM_DIR)/$(basename $(2))
SIM_LIBS += $(SIM_DIR)/$(2)
endef

$(eval $(call sim_lib,cuda,libcuda.so.1,))
$(eval $(call sim_lib,cudart,libcudart.so.13,))
$(eval $(call sim_lib,cublasLt,libcublasLt.so.13,))
$(eval $(call sim_lib,cublas,libcublas.so.13,-L$(SIM_DIR) -l:libcublasLt.so.13 -lblas))
$(SIM_DIR)/libcublas.so.13: $(SIM_DIR)/libcublasLt.so.13

# The driver's table of every entry point the headers declare, generated
# from the installed toolkit (see gen-entry-points.sh).
$(SIM_DIR)/gen/driver_pfn.h: tests/sim/cuda/gen-entry-points.sh $(wildcard $(CUDA_HOME)/include/cuda*Typedefs.h)
	@mkdir -p $(dir $@)
	sh $< $(CUDA_HOME)/include >$@.tmp && mv $@.tmp $@
$(SIM_DIR)/libcuda.so.1: $(SIM_DIR)/gen/driver_pfn.h

# Every function of the public headers that returns the library's status
# exists in its stand-in: gen-unsupported.py lists them, <lib>/unsupported.c
# defines each as a weak function returning NOT_SUPPORTED, and the
# functions the stand-in implements override them at link time.
define sim_unsupported # 1=folder 2=soname 3=headers 4=return type 5=prefix 6=prefix left out 7=raw headers
$(SIM_DIR)/gen/$(1)_unsupported.h: tests/sim/gen-unsupported.py $(wildcard $(CUDA_HOME)/include/*.h) | $(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	{ printf '#include <%s>\n' $(3) | $(CC) -E -P $(CUDA_INC) -x c - && \
	  printf '#include <%s>\n' $(3) | $(CC) -E -P $(CUDA_INC) -DCUDA_API_PER_THREAD_DEFAULT_STREAM -x c -; } >$$@.c.i
	printf '#include <%s>\n' $(3) | $(CC) -E -P $(CUDA_INC) -x c++ - >$$@.cxx.i
	python3 $$< $(4) $(5) $(6) $$@.c.i $$@.cxx.i $(addprefix $(CUDA_HOME)/include/,$(7)) >$$@.tmp && mv $$@.tmp $$@ && rm -f $$@.c.i $$@.cxx.i
$(SIM_DIR)/$(2): $(SIM_DIR)/gen/$(1)_unsupported.h
endef
$(eval $(call sim_unsupported,cudart,libcudart.so.13,cuda_runtime_api.h cuda_profiler_api.h,cudaError_t,cuda,-,\
  cuda_gl_interop.h cuda_egl_interop.h cuda_vdpau_interop.h))
$(eval $(call sim_unsupported,cublasLt,libcublasLt.so.13,cublasLt.h,cublasStatus_t,cublasLt,-))
$(eval $(call sim_unsupported,cublas,libcublas.so.13,cublas_v2.h cublasXt.h,cublasStatus_t,cublas,cublasLt))

# ATen's kernel twins (tests/sim/aten, families resolved by demangled name;
# see aten.h). Layouts come from preload/aten/abi*.h. libstdc++ is linked
# for __cxa_demangle alone.
ATEN_SRCS := $(wildcard tests/sim/aten/*.c)
ATEN_HDRS := $(wildcard tests/sim/aten/*.h preload/aten/abi*.h) tests/sim/simcuda.h
$(SIM_DIR)/libsimcuda_aten.so: $(ATEN_SRCS) $(ATEN_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(SIM_DIR)
	$(CC) $(CFLAGS) -fvisibility=hidden -Itests/sim -Itests/sim/aten -Ipreload/aten -shared \
	  -o $@ $(ATEN_SRCS) -lstdc++ -lm -lpthread
SIM_LIBS += $(SIM_DIR)/libsimcuda_aten.so

sim: $(SIM_LIBS)
all: sim
.PHONY: sim

# Every export of the real runtime, cuBLAS and cuBLASLt exists in the
# stand-in (check-coverage.sh; exclusions in tests/sim/coverage-exclusions).
.PHONY: sim-coverage
sim-coverage: sim
	@bash tests/sim/check-coverage.sh $(SIM_DIR) $(CUDA_HOME)/lib64 $(CUDA_HOME)/include
test: sim-coverage


# Unit test of the ATen twins' building blocks (cmocka).
ATEN_UNIT := $(SIM_DIR)/aten_unit
$(ATEN_UNIT): tests/sim/aten/unit/test_aten.c tests/sim/aten/offset_calc.c tests/sim/aten/names.c $(ATEN_HDRS) | $(DEPS_STAMP)
	@mkdir -p $(SIM_DIR)
	$(CC) $(CFLAGS) -Itests/sim -Itests/sim/aten -Ipreload/aten -o $@ tests/sim/aten/unit/test_aten.c \
	  tests/sim/aten/offset_calc.c tests/sim/aten/names.c -lcmocka -lm
.PHONY: aten-unit
aten-unit: $(ATEN_UNIT)
	$(ATEN_UNIT)
test: aten-unit
