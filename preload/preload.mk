# The interposition layer: libtransfold.so, the library users preload.
# One folder per hook family (driver/, runtime/, cublas/, lt/, aten/ ...),
# the shared machinery they call (learning/, launch/, calls/, streams/,
# core/), and tables/: the hook tables and how the real functions are found
# (docs/design.md has the map). Every .c here and one folder down is built,
# so a new family is a new folder plus its table. Besides these, the unknown-work
# hooks of every cuBLAS entry point not modelled here are generated from the
# installed cublas_api.h. Includes name the folder under preload/ or
# analysis/: "core/state.h", "engine.h", "learn/learn.h".
PRELOAD_SRC := $(wildcard preload/*.c preload/*/*.c)
PRELOAD_GEN := $(BUILD)/preload/gen
PRELOAD_GEN_DEF := $(PRELOAD_GEN)/hooks_cublas_gen.def
PRELOAD_GEN_C := $(PRELOAD_GEN)/cublas_unknown_gen.c
PRELOAD_OBJ := $(PRELOAD_SRC:%.c=$(BUILD)/%.o) $(PRELOAD_GEN)/cublas_unknown_gen.o
TRANSFOLD_SO := $(BUILD)/libtransfold.so
PRELOAD_CFLAGS = $(CFLAGS) -fvisibility=hidden $(CUDA_INC) -Ianalysis -Ipreload -I$(PRELOAD_GEN)

$(PRELOAD_GEN_DEF) $(PRELOAD_GEN_C) &: preload/tables/gen_cublas_hooks.sh preload/tables/cublas_host_only.txt \
    $(wildcard preload/tables/*.def) $(CUDA_HOME)/include/cublas_api.h | $(DEPS_STAMP)
	@mkdir -p $(PRELOAD_GEN)
	bash preload/tables/gen_cublas_hooks.sh $(CUDA_HOME)/include/cublas_api.h $(PRELOAD_GEN_DEF) $(PRELOAD_GEN_C)

# The generated table is a prerequisite of every object: the first build
# has no .d files yet to say which include it.
$(BUILD)/preload/%.o: preload/%.c $(BUILD)/preload/%.d $(PRELOAD_GEN_DEF) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(PRELOAD_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(PRELOAD_GEN)/cublas_unknown_gen.o: $(PRELOAD_GEN_C) $(PRELOAD_GEN)/cublas_unknown_gen.d
	$(CC) $(PRELOAD_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(TRANSFOLD_SO): $(PRELOAD_OBJ) $(ENGINE_LIB)
	$(CC) -shared -o $@ $(PRELOAD_OBJ) $(ENGINE_LIB) -ldl -lpthread -lm

all: $(TRANSFOLD_SO)
