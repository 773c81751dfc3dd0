# make sanitize: libtransfold.so (and its test-only inject build) and the
# unit tests rebuilt with ASan+UBSan, then with TSan, each into its own
# build folder; the unit tests, every e2e case and the fuzzer then run
# against them with the sanitizer runtime preloaded first
# (tests/sanitize/run.sh). The stand-in, the programs and the fuzzer
# binary are the main build's.
.PHONY: sanitize
sanitize: $(TRANSFOLD_SO) $(INJECT_SO) sim programs $(FUZZ_BIN)
	@BUILD=$(BUILD) CC=$(CC) CUDA_HOME=$(CUDA_HOME) bash tests/sanitize/run.sh
