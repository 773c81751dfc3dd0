# The interposition layer: libtransfold.so, the library users preload.
PRELOAD_SRC := $(wildcard preload/*.c)
PRELOAD_OBJ := $(PRELOAD_SRC:%.c=$(BUILD)/%.o)
TRANSFOLD_SO := $(BUILD)/libtransfold.so

$(BUILD)/preload/%.o: preload/%.c $(wildcard preload/*.h preload/*.def analysis/*.h) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden $(CUDA_INC) -Ianalysis -c $< -o $@

$(TRANSFOLD_SO): $(PRELOAD_OBJ) $(ENGINE_LIB)
	$(CC) -shared -o $@ $(PRELOAD_OBJ) $(ENGINE_LIB) -ldl -lpthread -lm

all: $(TRANSFOLD_SO)
