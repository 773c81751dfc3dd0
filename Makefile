# transfold top-level build. Each folder contributes a fragment (*.mk) that
# adds its targets; this file holds only what they share.
CUDA_HOME ?= /usr/local/cuda
PREFIX    ?= /usr/local
BUILD     := build
CC        ?= cc
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CSTD      := -std=gnu11 -Wall -Wextra -Werror
CFLAGS    ?= -O2 -g
CFLAGS    += $(CSTD) -fPIC -D_GNU_SOURCE
CUDA_INC  := -I$(CUDA_HOME)/include
DEPS_STAMP := $(BUILD)/.deps
# Each object's header dependencies, written by the compiler next to it
# (-MP: a header since removed does not break the build); read at the end.
DEPFLAGS  := -MMD -MP

.PHONY: all test demo bench install clean deps
all:

# Missing Debian packages are installed on first use, so a fresh machine
# needs nothing but `make test` / `make demo`.
deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/ensure-deps.sh
	@mkdir -p $(BUILD)
	@CUDA_HOME=$(CUDA_HOME) bash scripts/ensure-deps.sh
	@touch $@

include analysis/analysis.mk
include preload/preload.mk
include tests/sim/sim.mk
include tests/unit/unit.mk
include tests/programs/programs.mk
include tests/e2e/e2e.mk
include tests/fuzz/fuzz.mk
include tests/bench/bench.mk
include scripts/scripts.mk
include tests/sanitize/sanitize.mk
include tests/torch/torch.mk
include tests/layout/layout.mk

clean:
	rm -rf $(BUILD)

# Every .d is a target with no recipe, so an object whose .d is missing
# (built before -MMD, say) is out of date too.
DEP_FILES := $(ENGINE_OBJ:.o=.d) $(PRELOAD_OBJ:.o=.d) $(BUILD)/inject/algebra.d $(UNIT_BIN:=.d)
$(DEP_FILES):
-include $(wildcard $(DEP_FILES))
