.PHONY: bench
bench: $(TRANSFOLD_SO) sim programs
	@BUILD=$(BUILD) bash tests/bench/run.sh
