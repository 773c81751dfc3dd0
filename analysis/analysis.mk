# The engine: pure C, linked into libtransfold.so and into the unit tests.
# analysis/engine.h is its interface; one folder per concern below it
# (docs/design.md has the map). Includes name the folder: "index/umap.h".
ENGINE_SRC := $(wildcard analysis/*.c analysis/*/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
ENGINE_LIB := $(BUILD)/libtransfold_engine.a

$(BUILD)/analysis/%.o: analysis/%.c $(BUILD)/analysis/%.d | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) -fvisibility=hidden -Ianalysis -c $< -o $@

$(ENGINE_LIB): $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^
