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
ATEN_DECODE_SRC := preload/aten/kernel.c preload/aten/kernel_ptr.c preload/aten/types.c preload/aten/span.c preload/aten/decode.c preload/aten/decode_ptr.c preload/aten/tiled.c preload/aten/cat.c
ATEN_UNIT_BIN := $(BUILD)/unit/test_aten_decode $(BUILD)/unit/test_aten_tiled $(BUILD)/unit/test_aten_cat
$(ATEN_UNIT_BIN): $(BUILD)/unit/%: tests/unit/%.c $(ATEN_DECODE_SRC) $(BUILD)/unit/%.d $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MT $@ -MF $@.d -Ianalysis -Ipreload -Itests/unit -o $@ $< $(ATEN_DECODE_SRC) $(ENGINE_LIB) -lcmocka -lm

# The cuBLASLt shadow slots (preload/lt/shadow_slots.c) are pure C too.
LT_SLOTS_SRC := preload/lt/shadow_slots.c preload/lt/attrs.c
$(BUILD)/unit/test_lt_slots: tests/unit/test_lt_slots.c $(LT_SLOTS_SRC) $(BUILD)/unit/test_lt_slots.d $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -MT $@ -MF $@.d -Ianalysis -Ipreload -Itests/unit -o $@ $< $(LT_SLOTS_SRC) $(ENGINE_LIB) -lcmocka -lpthread -lm
