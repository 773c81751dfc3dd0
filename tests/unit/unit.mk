# cmocka tests of the engine: one binary per tests/unit/test_*.c.
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)

$(BUILD)/unit/%: tests/unit/%.c $(BUILD)/unit/%.d $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MT $@ -MF $@.d -Ianalysis -Ipreload -Itests/unit -o $@ $< $(ENGINE_LIB) -lcmocka -lm

.PHONY: unit
unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done
test: unit

# The ATen decoder (preload/aten) is pure C: its test builds it directly.
ATEN_DECODE_SRC := preload/aten/kernel.c preload/aten/kernel_ptr.c preload/aten/types.c preload/aten/span.c preload/aten/decode.c preload/aten/decode_ptr.c
$(BUILD)/unit/test_aten_decode: tests/unit/test_aten_decode.c $(ATEN_DECODE_SRC) $(BUILD)/unit/test_aten_decode.d $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MT $@ -MF $@.d -Ianalysis -Ipreload -Itests/unit -o $@ $< $(ATEN_DECODE_SRC) $(ENGINE_LIB) -lcmocka -lm
