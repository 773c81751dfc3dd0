# The engine: pure C, linked into libtransfold.so and into the unit tests.
ENGINE_SRC := $(wildcard analysis/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
ENGINE_LIB := $(BUILD)/libtransfold_engine.a

$(BUILD)/analysis/%.o: analysis/%.c $(BUILD)/analysis/%.d | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -fvisibility=hidden -c $< -o $@

$(ENGINE_LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^
