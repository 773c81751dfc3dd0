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
