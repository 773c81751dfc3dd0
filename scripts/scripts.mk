# The transfold command, the demo, the GPU check and the command's tests.
SCRIPT_TEST_BIN := $(BUILD)/scripts-tests/envprobe

.PHONY: demo install script-tests gpu-check
demo: $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) bash scripts/demo.sh

# Installed layout, which scripts/transfold looks for first:
# PREFIX/bin/transfold, PREFIX/lib/libtransfold.so, PREFIX/lib/transfold/sim.
install: $(TRANSFOLD_SO) sim
	install -d $(DESTDIR)$(PREFIX)/lib/transfold/sim $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(TRANSFOLD_SO) $(DESTDIR)$(PREFIX)/lib/libtransfold.so
	install -m 755 $(SIM_LIBS) $(DESTDIR)$(PREFIX)/lib/transfold/sim/
	install -m 755 scripts/transfold $(DESTDIR)$(PREFIX)/bin/transfold

$(SCRIPT_TEST_BIN): scripts/tests/envprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $<

script-tests: $(SCRIPT_TEST_BIN) $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) bash scripts/tests/run.sh
test: script-tests

# Needs a real GPU; not part of `make test` (GPU_CHECK_SIM=1 rehearses it
# on the stand-in).
gpu-check:
	@bash scripts/gpu-check.sh

# What to carry to an offline GPU machine besides build/libtransfold.so and
# build/programs: tools gpu-check needs that it may lack (jq).
GPU_CARRY := $(BUILD)/gpu-carry
.PHONY: gpu-carry
gpu-carry: $(GPU_CARRY)/bin/jq
$(GPU_CARRY)/bin/jq: scripts/gpu-carry.sh $(DEPS_STAMP)
	@bash scripts/gpu-carry.sh $(GPU_CARRY)
