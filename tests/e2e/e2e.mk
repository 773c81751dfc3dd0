# End-to-end: every program without transfold and in every mode.
.PHONY: e2e
e2e: $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) bash tests/e2e/run.sh
test: e2e
