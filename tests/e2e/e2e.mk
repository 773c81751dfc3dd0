# End-to-end: every program without transfold and in every mode.
.PHONY: e2e
e2e: $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) CUDA_HOME=$(CUDA_HOME) bash tests/e2e/run.sh
test: e2e

# A test-only build whose engine folds one element off, so that verify
# mode's own test can prove it catches a wrong fold.
INJECT_SO := $(BUILD)/inject/libtransfold.so
$(BUILD)/inject/algebra.o: analysis/algebra/algebra.c $(BUILD)/inject/algebra.d | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -fvisibility=hidden -Ianalysis -DTF_TEST_WRONG_FOLD -c $< -o $@
$(INJECT_SO): $(PRELOAD_OBJ) $(filter-out $(BUILD)/analysis/algebra/algebra.o,$(ENGINE_OBJ)) $(BUILD)/inject/algebra.o
	$(CC) -shared -o $@ $^ -ldl -lpthread -lm
e2e: $(INJECT_SO)
